import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ensembleFrom, tempDir, writeCounter, writeScript } from './helpers.js';

function chain(dir: string, slow: string, fast: string) {
  return ensembleFrom(
    `name: chain\nagents:\n  - { name: a, script: ${fast} }\n  - { name: b, script: ${slow}, depends_on: [a] }\n  - { name: c, script: ${fast}, depends_on: [b] }\n`,
    dir,
  );
}

describe('interrupting a run', () => {
  it('rejects with ABORTED, keeps the finished turns, and resumes to the uninterrupted result', async () => {
    const dir = tempDir();
    const fast = writeCounter(dir);
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => process.stdout.write(JSON.stringify({ success: true, data: { slow: 'done' } })), 400);`,
    );
    const store = new MemoryStore();
    const controller = new AbortController();
    const run = runEnsemble(chain(dir, slow, fast), {
      store,
      runId: 'interrupted',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'agent_started' && event.agent === 'b')
          controller.abort(new Error('shutting down'));
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(run).rejects.toThrow(/--resume interrupted/);

    const resumed = await runEnsemble(chain(dir, slow, fast), { store, resume: 'interrupted' });
    const fresh = await runEnsemble(chain(dir, slow, fast), { store: new MemoryStore() });
    expect(resumed.completion_reason).toBe('completed');
    expect(resumed.conversation_history.map((t) => t.agent_name)).toEqual(['a', 'b', 'c']);
    expect(resumed.conversation_history.map((t) => t.output_data)).toEqual(
      fresh.conversation_history.map((t) => t.output_data),
    );
  });
});

describe('a store that fails while saving a finished agent', () => {
  it('ends the run with the store error instead of blaming the agent', async () => {
    const dir = tempDir();
    const fast = writeCounter(dir);
    const store = new MemoryStore();
    const setMetadata = store.setMetadata.bind(store);
    let calls = 0;
    store.setMetadata = async (...args) => {
      calls += 1;
      if (calls === 3) throw new StoreError('disk full while saving', { transient: false });
      return setMetadata(...args);
    };
    const run = runEnsemble(chain(dir, fast, fast), { store });
    await expect(run).rejects.toBeInstanceOf(StoreError);
    await expect(run).rejects.toThrow('disk full while saving');
  });
});
