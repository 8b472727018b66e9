import { describe, expect, it } from 'vitest';
import { ConflictError, StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { withRetry } from '../../src/stores/retrying.js';
import { MemoryTraceStore } from '../../src/stores/traceStore.js';
import { linkTraceStore, traceStoreFor } from '../../src/stores/traceStores.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { runStoreConformance } from '../../src/testing.js';

/** A memory store whose next `failures` calls of `method` throw `error`. */
function flaky(
  method: keyof ThreadStore,
  failures: number,
  error: () => Error,
): { store: ThreadStore; calls: () => number } {
  const inner = new MemoryStore();
  let calls = 0;
  const store = new Proxy(inner as ThreadStore, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property !== method) return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        calls++;
        if (calls <= failures) throw error();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return { store, calls: () => calls };
}

const fast = { minTimeoutMs: 1, maxTimeoutMs: 5 };
const item = { id: 'a', item: { role: 'user' as const, content: 'hi' } };

describe('withRetry', () => {
  it('retries transient StoreErrors until the operation succeeds', async () => {
    const { store, calls } = flaky('append', 3, () => new StoreError('busy', { transient: true }));
    expect(
      await withRetry(store, { retries: 5, ...fast }).append('t', [item], { expectedVersion: 0 }),
    ).toBe(1);
    expect(calls()).toBe(4);
  });

  it('gives up after `retries` retries with the last transient error', async () => {
    const { store, calls } = flaky(
      'readItems',
      10,
      () => new StoreError('still busy', { transient: true }),
    );
    await expect(withRetry(store, { retries: 2, ...fast }).readItems('t')).rejects.toThrow(
      'still busy',
    );
    expect(calls()).toBe(3);
  });

  it('never retries a ConflictError or a permanent StoreError', async () => {
    const conflict = flaky('append', 1, () => new ConflictError('t', 0, 2));
    await expect(
      withRetry(conflict.store, fast).append('t', [item], { expectedVersion: 0 }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(conflict.calls()).toBe(1);
    const permanent = flaky('getThread', 1, () => new StoreError('disk full'));
    await expect(withRetry(permanent.store, fast).getThread('t')).rejects.toThrow('disk full');
    expect(permanent.calls()).toBe(1);
  });

  it('keeps kind and passes non-method properties through', () => {
    expect(withRetry(new MemoryStore()).kind).toBe('memory');
  });

  it("keeps the wrapped store's leases and trace store", async () => {
    const inner = new MemoryStore();
    const wrapped = withRetry(inner, fast);
    expect(wrapped.leases).toBe(inner.leases);
    const traces = new MemoryTraceStore();
    linkTraceStore(inner, traces);
    expect(await traceStoreFor(wrapped)).toBe(traces);
  });

  it('retries a batched append of a store that has one, and offers none otherwise', async () => {
    expect(withRetry(new MemoryStore(), fast).appendMany).toBeUndefined();
    const inner = new MemoryStore() as MemoryStore & Pick<ThreadStore, 'appendMany'>;
    let calls = 0;
    inner.appendMany = async (batch) => {
      calls += 1;
      if (calls === 1) throw new StoreError('busy', { transient: true });
      return batch.map((entry) => entry.items.length);
    };
    const versions = await withRetry(inner, fast).appendMany!([
      { threadId: 't', items: [item], options: { expectedVersion: 0 } },
    ]);
    expect(versions).toEqual([1]);
    expect(calls).toBe(2);
  });
});

runStoreConformance({
  name: 'withRetry(MemoryStore)',
  create: async () => withRetry(new MemoryStore(), fast),
});
