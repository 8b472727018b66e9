import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { runLeaseKey } from '../../src/ensembles/runLease.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

/** One agent that re-triggers itself 10 times; each execution logs `tick n` to runs.log. */
function ticking(dir: string) {
  const tick = writeScript(
    dir,
    'tick.js',
    `const n = (msg.conversation_state.agent_execution_count.tick ?? 0) + 1;
     require('node:fs').appendFileSync(${JSON.stringify(path.join(dir, 'runs.log'))}, 'tick ' + n + '\\n');
     setTimeout(() => reply({ success: true, data: { n } }), 60);`,
  );
  return ensembleFrom(
    `name: ticking\nagents:\n  - name: tick\n    script: ${tick}\n    depends_on: [{ agent_name: tick, condition: 'true', max_executions: 20 }]\n    conversation: { max_turns: 10, triggers_conversation: true }\nconversation_limits: { max_total_turns: 50 }\n`,
    dir,
  );
}

/** Starts the run and interrupts it after its first turn: a resumable run. */
async function interrupted(store: ThreadStore, dir: string): Promise<void> {
  const controller = new AbortController();
  await expect(
    runEnsemble(ticking(dir), {
      store,
      runId: 'r',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'turn_recorded') controller.abort(new Error('stop'));
      },
    }),
  ).rejects.toMatchObject({ code: 'ABORTED' });
}

const logged = (dir: string) => readFileSync(path.join(dir, 'runs.log'), 'utf8').trim().split('\n');

describe('resuming the same run twice at once', () => {
  it('runs each agent execution once: the second resume waits for the first and answers its result', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'runs.db');
    const first = new SqliteStore({ path: db });
    const second = new SqliteStore({ path: db });
    try {
      await interrupted(first, dir);
      const [a, b] = await Promise.all([
        runEnsemble(ticking(dir), { store: first, resume: 'r', leaseWaitMs: 20_000 }),
        runEnsemble(ticking(dir), { store: second, resume: 'r', leaseWaitMs: 20_000 }),
      ]);
      expect(a.turn_count).toBe(10);
      expect(b).toEqual(a);
      // 10 executions for 10 turns (without the lease: up to 17 here).
      expect(logged(dir)).toEqual(Array.from({ length: 10 }, (_, i) => `tick ${i + 1}`));
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('refuses the second resume with LEASE_BUSY when it may not wait, and runs nothing for it', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    await interrupted(store, dir);
    const results = await Promise.allSettled([
      runEnsemble(ticking(dir), { store, resume: 'r' }),
      runEnsemble(ticking(dir), { store, resume: 'r', leaseWaitMs: 0 }),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { turn_count: 10 } });
    expect(results[1]).toMatchObject({
      status: 'rejected',
      reason: {
        code: 'LEASE_BUSY',
        message: expect.stringMatching(/"r" is being run by another caller/),
      },
    });
    expect(logged(dir)).toHaveLength(10);
    // Released at the end: a later resume gets the run (finished: its stored result).
    expect(await store.leases.acquire(runLeaseKey('r'), 'someone', 1000)).toBe(true);
  });

  it('a new run does not wait for a busy run id', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    await store.leases.acquire(runLeaseKey('busy'), 'other', 60_000);
    await expect(runEnsemble(ticking(dir), { store, runId: 'busy' })).rejects.toMatchObject({
      code: 'LEASE_BUSY',
    });
    expect(await store.getThread('busy::main')).toBeNull();
  });
});
