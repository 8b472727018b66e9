import { describe, expect, it } from 'vitest';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { llmPrompt } from '../../src/ensembles/llmAgent.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ensembleFrom, tempDir, writeCounter, writeScript } from './helpers.js';

function pair(dir: string) {
  const counter = writeCounter(dir);
  return ensembleFrom(
    `name: pair\nagents:\n  - { name: a, script: ${counter} }\n  - { name: b, script: ${counter}, depends_on: [a] }\n`,
    dir,
  );
}

describe('runEnsemble', () => {
  it('emits plain JSON events in order, with turn counts', async () => {
    const events: EnsembleEvent[] = [];
    await runEnsemble(pair(tempDir()), { runId: 'ev', onEvent: (event) => events.push(event) });
    expect(
      events.map((event) =>
        event.type === 'turn_recorded'
          ? `${event.type}:${event.turn.agent_name}:${event.turn_count}`
          : event.type === 'step_started'
            ? `${event.type}:${event.agents.join(',')}:${event.turn_count}`
            : event.type,
      ),
    ).toEqual([
      'ensemble_started',
      'step_started:a:0',
      'agent_started',
      'agent_finished',
      'turn_recorded:a:1',
      'step_started:b:1',
      'agent_started',
      'agent_finished',
      'turn_recorded:b:2',
      'ensemble_finished',
    ]);
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  });

  it('refuses to resume a run that does not exist, or with another ensemble', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    await expect(runEnsemble(pair(dir), { store, resume: 'ghost' })).rejects.toThrow(
      /There is no run "ghost" to resume in the memory store/,
    );
    await runEnsemble(pair(dir), { store, runId: 'mine' });
    const other = ensembleFrom(`name: other\nagents:\n  - { name: a, script: x }\n`, dir);
    await expect(runEnsemble(other, { store, resume: 'mine' })).rejects.toThrow(
      /Run "mine" belongs to ensemble "pair", not "other"/,
    );
  });

  it('refuses a new run with an id already used', async () => {
    const store = new MemoryStore();
    const dir = tempDir();
    await runEnsemble(pair(dir), { store, runId: 'dup' });
    await expect(runEnsemble(pair(dir), { store, runId: 'dup' })).rejects.toThrow(/already exists/);
  });

  it('saves one head write per committed step (plus the first plan and the finish); the turns are the checkpoints', async () => {
    const store = new MemoryStore();
    let writes = 0;
    const setMetadata = store.setMetadata.bind(store);
    store.setMetadata = async (...args) => {
      writes += 1;
      return setMetadata(...args);
    };
    const result = await runEnsemble(pair(tempDir()), { store, runId: 'w' });
    expect(result.turn_count).toBe(2);
    // created, plan of step 1, commit of step 1 (+ plan of step 2), commit of step 2, finished.
    expect(writes).toBe(5);
    // Store checkpoints only when created and finished: each turn item records the positions.
    expect((await store.listCheckpoints('w')).map((c) => c.label)).toEqual(['created', 'finished']);
    const items = await store.readItems('w::main');
    expect(
      items.map(
        (entry) => (entry.item as { providerData?: { threads?: unknown } }).providerData?.threads,
      ),
    ).toEqual([{}, {}]);
  });

  it('each turn item records the versions of the LLM agents` sub-threads after its step', async () => {
    const store = new MemoryStore();
    const dir = tempDir();
    const counter = writeCounter(dir);
    await runEnsemble(
      ensembleFrom(
        `name: llm\nagents:\n  - { name: a, script: ${counter} }\n  - { name: t, model_profile: p, depends_on: [a] }\n`,
        dir,
      ),
      {
        store,
        runId: 'pos',
        createModel: () => new ScriptedModel(['{"ok": true}'], { repeatLast: true }),
      },
    );
    const items = await store.readItems('pos::main');
    expect(
      items.map(
        (entry) => (entry.item as { providerData?: { threads?: unknown } }).providerData?.threads,
      ),
    ).toEqual([{ t: 0 }, { t: 2 }]);
    expect(await store.readItems('pos::t')).toHaveLength(2);
  });

  it('a guard that fails to evaluate fails its agent, not the run', async () => {
    const dir = tempDir();
    const counter = writeCounter(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: g\nagents:\n  - { name: a, script: ${counter} }\n  - { name: b, script: ${counter}, depends_on: [a], when: 'state.a.missing.deeper' }\n`,
        dir,
      ),
    );
    expect(result.failed_agents).toEqual(['b']);
    expect(result.conversation_history[1]!.error).toMatch(
      /its guard "when: state.a.missing.deeper" failed/,
    );
  });

  it('formatPrompt replaces the LLM prompt (the seam for llm-orc`s format)', async () => {
    const dir = tempDir();
    const seen: string[] = [];
    const source = writeScript(dir, 's.js', `reply({ success: true, data: { v: 7 } });`);
    await runEnsemble(
      ensembleFrom(
        `name: p\nagents:\n  - { name: s, script: ${source} }\n  - { name: w, model_profile: p, depends_on: [s] }\n`,
        dir,
      ),
      {
        input: 'the task',
        formatPrompt: (input, agent) =>
          `${agent.name} <- ${input.input} / ${JSON.stringify(input.context)}`,
        createModel: () =>
          new ScriptedModel([
            (request) => {
              seen.push(JSON.stringify(request.input));
              return 'ok';
            },
          ]),
      },
    );
    expect(seen[0]).toContain('w <- the task / {\\"s\\":{\\"v\\":7}}');
  });

  it('the default prompt lists outputs, failures and requests', () => {
    const prompt = llmPrompt({
      input: 'do it',
      context: { a: { x: 1 } },
      failed: { b: 'exited with code 1' },
      requests: [{ from: 'c', parameters: { p: 1 }, priority: 0 }],
    });
    expect(prompt).toMatch(/^Task: do it/);
    expect(prompt).toContain('"x": 1');
    expect(prompt).toContain('These agents you depend on failed');
    expect(prompt).toContain('"b": "exited with code 1"');
    expect(prompt).toContain('Requests from other agents');
    expect(llmPrompt({ input: 'plain', context: {} })).toBe('Task: plain');
  });

  it('a run interrupted before its first step starts leaves nothing run, and resumes', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    const controller = new AbortController();
    controller.abort(new Error('at once'));
    await expect(
      runEnsemble(pair(dir), { store, runId: 'early', signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    const resumed = await runEnsemble(pair(dir), { store, resume: 'early' });
    expect(resumed.turn_count).toBe(2);
  });
});
