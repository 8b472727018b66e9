import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { holdRunLease, RunBusyError, runLeaseKey } from '../../src/ensembles/runLease.js';
import { MemoryLeases } from '../../src/stores/lease.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

/** A memory store whose leases are lost at the first renewal (as if another process took them). */
class LosingStore extends MemoryStore {
  override readonly leases = new (class extends MemoryLeases {
    override async renew(): Promise<boolean> {
      return false;
    }
  })();
}

describe('the run lease', () => {
  it('is not taken on a store without leases', async () => {
    const store = new MemoryStore();
    Object.defineProperty(store, 'leases', { value: undefined });
    expect(await holdRunLease(store, 'r', 0)).toBeNull();
  });

  it('a busy run is refused with RunBusyError naming the run and the way out', async () => {
    const store = new MemoryStore();
    await store.leases.acquire(runLeaseKey('r'), 'someone', 60_000);
    const error = await holdRunLease(store, 'r', 50).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunBusyError);
    expect(error).toMatchObject({ code: 'LEASE_BUSY', runId: 'r' });
    expect((error as Error).message).toMatch(/waited 50 ms.*resume again/s);
  });

  it('a run that loses its lease stops before saving more, with LEASE_BUSY', async () => {
    const dir = tempDir();
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 2500);`,
    );
    const ok = writeScript(dir, 'ok.js', `reply({ success: true, data: {} });`);
    const store = new LosingStore();
    await expect(
      runEnsemble(
        ensembleFrom(
          `name: lose\nagents:\n  - { name: slow, script: ${slow} }\n  - { name: next, script: ${ok}, depends_on: [slow] }\n`,
          dir,
        ),
        { store, runId: 'lost' },
      ),
    ).rejects.toMatchObject({
      code: 'LEASE_BUSY',
      message: expect.stringMatching(/lost its lease/),
    });
    // The step that was running when the lease was lost was not committed.
    const head = (await store.getThread('lost::main'))!.metadata.workflow as {
      conversation: { turn_count: number };
    };
    expect(head.conversation.turn_count).toBe(0);
  });
});
