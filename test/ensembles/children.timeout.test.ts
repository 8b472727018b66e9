import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { tempDir, writeScript } from './helpers.js';

function write(dir: string, name: string, yaml: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

/** A child ensemble whose one agent takes 4 s, and an agent that answers at once. */
function slowChild(dir: string): { ok: string } {
  const slow = writeScript(
    dir,
    'slow.js',
    `setTimeout(() => reply({ success: true, data: { done: true } }), 4000);`,
  );
  write(dir, 'child', `name: child\nagents:\n  - { name: c, script: ${slow} }\n`);
  return { ok: writeScript(dir, 'ok.js', `reply({ success: true, data: { ok: 1 } });`) };
}

describe('timeout_seconds of a sub-ensemble or loop agent', () => {
  it('stops the child run at the agent`s timeout; the agent fails and the parent goes on', async () => {
    const dir = tempDir();
    const { ok } = slowChild(dir);
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: child, timeout_seconds: 0.5 }\n` +
        `  - { name: after, script: ${ok}, depends_on: [sub] }\n`,
    );
    const store = new MemoryStore();
    const started = performance.now();
    const run = await runEnsemble(await loadEnsemble(parent), { store, runId: 'p' });
    expect(performance.now() - started).toBeLessThan(3500);
    expect(run.completion_reason).toBe('completed');
    expect(run.failed_agents).toEqual(['sub']);
    expect(run.conversation_history[0]!.error).toMatch(
      /did not finish within its timeout_seconds \(0\.5s\); its sub-ensemble run was stopped/,
    );
    // The dependent still runs (and sees the failure); the child run is left unfinished.
    expect(run.conversation_history.map((turn) => turn.agent_name)).toEqual(['sub', 'after']);
    expect(run.conversation_history[1]!.input_data.failed).toEqual({
      sub: run.conversation_history[0]!.error,
    });
    const child = await WorkflowThread.load(store, 'p/sub/1');
    expect(child!.state.data.status).toBe('running');
  });

  it('applies to a loop agent as a whole', async () => {
    const dir = tempDir();
    slowChild(dir);
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - name: l\n    timeout_seconds: 0.5\n` +
        `    loop: { body: child, until: 'false', max_iterations: 3 }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.failed_agents).toEqual(['l']);
    expect(run.conversation_history[0]!.error).toMatch(/its loop body run was stopped/);
  });

  it('a timeout longer than the child needs changes nothing', async () => {
    const dir = tempDir();
    const { ok } = slowChild(dir);
    write(dir, 'quick', `name: quick\nagents:\n  - { name: q, script: ${ok} }\n`);
    const parent = write(
      dir,
      'parent',
      `name: parent\nagents:\n  - { name: sub, ensemble: quick, timeout_seconds: 30 }\n`,
    );
    const run = await runEnsemble(await loadEnsemble(parent));
    expect(run.failed_agents ?? []).toEqual([]);
    expect(run.final_state.sub).toMatchObject({ completion_reason: 'completed', turn_count: 1 });
  });
});
