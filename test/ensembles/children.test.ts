import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childOutput, MAX_ENSEMBLE_DEPTH, terminalOutput } from '../../src/ensembles/children.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import type { ConversationResult } from '../../src/ensembles/runState.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { nestedDepth, tempDir, writeScript } from './helpers.js';

/** Writes `name.yaml` into dir and returns its path. */
function write(dir: string, name: string, yaml: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

function result(
  history: { agent: string; output: object; status?: 'failed' }[],
): ConversationResult {
  return {
    run_id: 'r',
    final_state: {},
    conversation_history: history.map((entry, i) => ({
      turn_number: i + 1,
      agent_name: entry.agent,
      input_data: {},
      output_data: entry.output as Record<string, unknown>,
      execution_time: 0,
      timestamp: 't',
      ...(entry.status ? { status: entry.status } : {}),
    })),
    turn_count: history.length,
    completion_reason: 'completed',
    usage: { requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    agent_execution_count: {},
  };
}

describe('child results', () => {
  it('the terminal output is the last successful turn', () => {
    expect(
      terminalOutput(
        result([
          { agent: 'a', output: { x: 1 } },
          { agent: 'b', output: { y: 2 } },
          { agent: 'c', output: {}, status: 'failed' },
        ]),
      ),
    ).toEqual({ y: 2 });
    expect(terminalOutput(result([]))).toEqual({});
  });

  it('a sub-ensemble agent outputs the child run`s reason, turns and final state', () => {
    expect(childOutput({ ...result([]), failed_agents: ['z'] })).toEqual({
      completion_reason: 'completed',
      turn_count: 0,
      final_state: {},
      failed_agents: ['z'],
    });
  });
});

describe('sub-ensembles and loops in a run', () => {
  it('a failing child run is a failure of its agent; the parent goes on', async () => {
    const dir = tempDir();
    const bad = writeScript(dir, 'bad.js', `reply({ success: false, error: 'child broke' });`);
    const ok = writeScript(dir, 'ok.js', `reply({ success: true, data: { ok: 1 } });`);
    write(
      dir,
      'child',
      `name: child\non_failure: stop\nagents:\n  - { name: c, script: ${bad} }\n`,
    );
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: child }\n  - { name: other, script: ${ok} }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.completion_reason).toBe('completed');
    expect(run.failed_agents).toEqual(['sub']);
    expect(run.conversation_history[0]!.error).toMatch(
      /its ensemble "child" ended with an error: Agent "c" failed: .*child broke/,
    );
  });

  it('an ensemble that cannot be found fails its agent, naming where it looked', async () => {
    const dir = tempDir();
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: nowhere }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.failed_agents).toEqual(['sub']);
    expect(run.conversation_history[0]!.error).toMatch(
      /its ensemble "nowhere" could not be loaded/,
    );
  });

  it('nesting deeper than the limit fails instead of recursing forever', async () => {
    const dir = tempDir();
    const self = write(dir, 'self', `name: self\nagents:\n  - { name: again, ensemble: self }\n`);
    const run = await runEnsemble(await loadEnsemble(self), { store: new MemoryStore() });
    // Each level's agent outputs its child's result; the child at the limit fails its agent.
    const { depth, deepest } = nestedDepth(run, 'again');
    expect(depth).toBe(MAX_ENSEMBLE_DEPTH);
    expect(deepest.failed_agents).toEqual(['again']);
    expect(run.completion_reason).toBe('completed');
  });

  it('a loop that never meets until stops at max_iterations: terminated exhausted', async () => {
    const dir = tempDir();
    const step = writeScript(
      dir,
      'step.js',
      `reply({ success: true, data: { draft: msg.input + '.', done: false } });`,
    );
    write(dir, 'body', `name: body\nagents:\n  - { name: s, script: ${step} }\n`);
    const parent = write(
      dir,
      'parent',
      `name: parent\ndefault_task: go\nagents:\n  - name: l\n    loop: { body: body, until: '\${done} == true', max_iterations: 2, carry: '\${draft}' }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.final_state.l).toEqual({
      output: { draft: 'go..', done: false },
      iterations: 2,
      terminated: 'exhausted',
    });
  });

  it('until in CEL sees the body output as state and the iteration as turn', async () => {
    const dir = tempDir();
    const step = writeScript(
      dir,
      'step.js',
      `reply({ success: true, data: { n: msg.input.length } });`,
    );
    write(dir, 'body', `name: body\nagents:\n  - { name: s, script: ${step} }\n`);
    const parent = write(
      dir,
      'parent',
      `name: parent\ndefault_task: abc\nagents:\n  - name: l\n    loop: { body: body, until: 'turn >= 3', max_iterations: 9 }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.final_state.l).toMatchObject({
      iterations: 3,
      terminated: 'until',
      output: { n: 3 },
    });
  });

  it('a resumed parent resumes its finished children from the store instead of re-running them', async () => {
    const dir = tempDir();
    const counted = writeScript(
      dir,
      'counted.js',
      `require('node:fs').appendFileSync(${JSON.stringify(path.join(dir, 'runs.log'))}, 'x\\n'); reply({ success: true, data: { n: 1 } });`,
    );
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 400);`,
    );
    write(dir, 'child', `name: child\nagents:\n  - { name: c, script: ${counted} }\n`);
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: child }\n  - { name: wait, script: ${slow} }\n`,
    );
    const store = new MemoryStore();
    const controller = new AbortController();
    await expect(
      runEnsemble(await loadEnsemble(parent), {
        store,
        runId: 'p',
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'agent_finished' && event.agent === 'sub') controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    const resumed = await runEnsemble(await loadEnsemble(parent), { store, resume: 'p' });
    expect(resumed.completion_reason).toBe('completed');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(dir, 'runs.log'), 'utf8')).toBe('x\n');
  });
});

describe('a sub-ensemble still running when the parent times out', () => {
  it('ends the parent with timeout (not an error), leaving the child resumable', async () => {
    const dir = tempDir();
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 3000);`,
    );
    write(dir, 'child', `name: child\nagents:\n  - { name: c, script: ${slow} }\n`);
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: child }\nconversation_limits: { timeout_seconds: 0.8 }\n`,
    );
    const store = new MemoryStore();
    const run = await runEnsemble(await loadEnsemble(parent), { store, runId: 'p' });
    expect([run.completion_reason, run.turn_count, run.error]).toEqual(['timeout', 0, undefined]);
    expect(await store.getThread('p/sub/1::main')).not.toBeNull();
  });
});
