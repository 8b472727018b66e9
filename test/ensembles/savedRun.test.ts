import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleRunExists, readEnsembleRun } from '../../src/ensembles/savedRun.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ensembleFrom, tempDir, writeCounter, writeScript } from './helpers.js';

describe('readEnsembleRun', () => {
  it('reads a finished run with its result and whole history', async () => {
    const dir = tempDir();
    const counter = writeCounter(dir);
    const store = new MemoryStore();
    const result = await runEnsemble(
      ensembleFrom(
        `name: saved\nagents:\n  - { name: a, script: ${counter} }\n  - { name: b, script: ${counter}, depends_on: [a] }\n`,
        dir,
      ),
      { store, runId: 'run-1', input: 'task' },
    );
    expect(await ensembleRunExists(store, 'run-1')).toBe(true);
    expect(await readEnsembleRun(store, 'run-1')).toEqual({
      runId: 'run-1',
      ensemble: 'saved',
      status: 'finished',
      turnCount: 2,
      input: 'task',
      result,
    });
  });

  it('reads an unfinished run as running, without a result; an unknown id as null', async () => {
    const dir = tempDir();
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 300);`,
    );
    const store = new MemoryStore();
    const controller = new AbortController();
    const run = runEnsemble(
      ensembleFrom(`name: slow\nagents:\n  - { name: s, script: ${slow} }\n`, dir),
      {
        store,
        runId: 'run-2',
        signal: controller.signal,
        onEvent: (event) => event.type === 'agent_started' && controller.abort(),
      },
    );
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await readEnsembleRun(store, 'run-2')).toEqual({
      runId: 'run-2',
      ensemble: 'slow',
      status: 'running',
      turnCount: 0,
      input: '',
    });
    expect(await readEnsembleRun(store, 'nope')).toBeNull();
    expect(await ensembleRunExists(store, 'nope')).toBe(false);
  });
});
