// Resuming runs with dispatch: agents: the target is resolved once, when the step is prepared,
// and checkpointed in the step's input; a resumed step dispatches to that ensemble and resumes
// its child run instead of starting over.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { workflowStateSchema } from '../../src/ensembles/runState.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { comparable, dispatchSeats, tempDir, writeScript } from './helpers.js';

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/ensemble-run/v2-running-dispatch.json',
);

/**
 * The ensemble the frozen fixture was written by (`dispatch-fixture`): route picks beta, seat
 * dispatches to it with route's brief. Here route would pick alpha, were it to run again.
 */
function fixtureEnsemble(): Ensemble {
  const dir = dispatchSeats(`{ target: 'alpha', brief: 'new' }`);
  return parseEnsemble(
    `name: dispatch-fixture
agents:
  - { name: route, script: ./route.js }
  - { name: seat, dispatch: '\${route.target}', depends_on: [route], input_key: brief }
`,
    { file: path.join(dir, 'dispatch-fixture.yaml'), baseDir: dir },
  );
}

describe('the frozen fixture of a run stopped at its dispatch step', () => {
  const read = () =>
    JSON.parse(readFileSync(fixture, 'utf8')) as {
      workflow: { conversation: { latest_outputs: Record<string, Record<string, unknown>> } };
      mainThreadItems: ThreadItem[];
    };

  it('matches the saved-state schema, and records the resolved target in the step`s input', () => {
    const parsed = workflowStateSchema.parse(read().workflow);
    expect(parsed.execution.currentStep!.inputs.seat!.input_data.dispatch).toEqual({
      reference: '${route.target}',
      target: 'beta',
    });
  });

  /** A store holding the fixture as run `fixture-run`, after `change` edits its workflow. */
  async function storeWith(change: (workflow: ReturnType<typeof read>['workflow']) => void) {
    const { workflow, mainThreadItems } = read();
    change(workflow);
    const store = new MemoryStore();
    await store.append('fixture-run::main', mainThreadItems, {
      expectedVersion: 0,
      chatId: 'fixture-run',
    });
    await store.setMetadata('fixture-run::main', { kind: 'workflow', workflow }, 'fixture-run');
    return store;
  }

  it('resumes to the recorded target, even when the state would now resolve elsewhere', async () => {
    // The committed output now says alpha: a resume that resolved again would go there.
    const store = await storeWith((workflow) => {
      workflow.conversation.latest_outputs.route!.target = 'alpha';
    });
    const events: EnsembleEvent[] = [];
    const result = await runEnsemble(fixtureEnsemble(), {
      store,
      resume: 'fixture-run',
      onEvent: (event) => events.push(event),
    });
    expect(result.completion_reason).toBe('completed');
    expect(result.final_state.seat).toMatchObject({
      final_state: { answer: { seat: 'beta', got: 'the brief' } },
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'agent_dispatched', target: 'beta', ensemble: 'beta' }),
    );
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual(['route', 'seat']);
  });

  it('a step saved without a recorded target (older state) resolves on the committed state', async () => {
    const store = await storeWith((workflow) => {
      const step = (workflow as unknown as { execution: { currentStep: { inputs: any } } })
        .execution.currentStep;
      delete step.inputs.seat.input_data.dispatch;
      workflow.conversation.latest_outputs.route!.target = 'alpha';
    });
    const result = await runEnsemble(fixtureEnsemble(), {
      store,
      resume: 'fixture-run',
    });
    expect(result.final_state.seat).toMatchObject({
      final_state: { answer: { seat: 'alpha', got: 'the brief' } },
    });
  });
});

describe('a run interrupted while its dispatched ensemble runs', () => {
  /** route picks beta; beta's first agent logs c1, its second (slow) logs c2 when it ends. */
  function setup() {
    const dir = tempDir();
    const log = path.join(dir, 'runs.log');
    writeScript(dir, 'route.js', `reply({ success: true, data: { target: 'beta' } });`);
    const c1 = writeScript(
      dir,
      'c1.js',
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, 'c1\\n'); reply({ success: true, data: { one: msg.input } });`,
    );
    const c2 = writeScript(
      dir,
      'c2.js',
      `setTimeout(() => { require('node:fs').appendFileSync(${JSON.stringify(log)}, 'c2\\n'); reply({ success: true, data: { two: msg.context.c1.one } }); }, 1200);`,
    );
    writeFileSync(
      path.join(dir, 'beta.yaml'),
      `name: beta\nagents:\n  - { name: c1, script: ${c1} }\n  - { name: c2, script: ${c2}, depends_on: [c1] }\n`,
    );
    writeFileSync(
      path.join(dir, 'alpha.yaml'),
      `name: alpha\nagents:\n  - { name: a, script: ${c1} }\n`,
    );
    const ensemble = parseEnsemble(
      `name: main\ndefault_task: job\nagents:\n  - { name: route, script: ./route.js }\n  - { name: seat, dispatch: '\${route.target}', depends_on: [route] }\n`,
      { file: path.join(dir, 'main.yaml'), baseDir: dir },
    );
    return { dir, log, ensemble };
  }

  it('resumes the same child run: finished child agents are not run again', async () => {
    const { log, ensemble } = setup();
    const store = new MemoryStore();
    const controller = new AbortController();
    let poll: NodeJS.Timeout | undefined;
    await expect(
      runEnsemble(ensemble, {
        store,
        runId: 'p',
        signal: controller.signal,
        onEvent: (event) => {
          // Stop the parent once the child has committed its first agent's turn (the second is
          // still running). Not when c1 has merely logged: its turn may not be saved yet, and a
          // turn not saved is rightly run again on resume.
          if (event.type === 'agent_dispatched')
            poll = setInterval(() => {
              void store.readItems('p/seat/1::main').then(
                (turns) => turns.length > 0 && controller.abort(),
                () => undefined,
              );
            }, 20);
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    clearInterval(poll);
    const saved = await WorkflowThread.load(store, 'p');
    expect(saved!.state.execution.currentStep!.inputs.seat!.input_data.dispatch).toEqual({
      reference: '${route.target}',
      target: 'beta',
    });
    expect(await store.getThread('p/seat/1::main')).not.toBeNull();

    const events: EnsembleEvent[] = [];
    const resumed = await runEnsemble(ensemble, {
      store,
      resume: 'p',
      onEvent: (event) => events.push(event),
    });
    expect(readFileSync(log, 'utf8')).toBe('c1\nc2\n');
    expect(events.filter((event) => event.type === 'agent_dispatched')).toEqual([
      expect.objectContaining({ target: 'beta', child_run_id: 'p/seat/1' }),
    ]);
    const uninterrupted = await runEnsemble(setup().ensemble, { store: new MemoryStore() });
    expect(comparable(resumed)).toEqual(comparable(uninterrupted));
    expect(resumed.final_state.seat).toMatchObject({
      final_state: { c1: { one: 'job' }, c2: { two: 'job' } },
    });
  });
});
