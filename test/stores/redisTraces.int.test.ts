// RedisTraceStore (a RedisStore's `traces`) against the test Redis started by
// test/setup/services.ts: the trace-store conformance suite, the link to the thread store, and
// the cap and TTL options. Each store gets its own key prefix, deleted afterwards.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisStore } from '../../src/stores/redis.js';
import { RedisTraceStore } from '../../src/stores/redisTraces.js';
import type { TraceStore } from '../../src/stores/traceStore.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { runTraceStoreConformance, storedTrace } from '../../src/testing/traceStoreConformance.js';
import { redisUrl, uniqueName } from '../setup/serviceUrls.js';
import { redisBackend } from './isolatedStores.js';

const backend = redisBackend();
const owners = new WeakMap<TraceStore, RedisStore>();
const opened: RedisStore[] = [];

function open(options: ConstructorParameters<typeof RedisStore>[0] = {}): RedisStore {
  const store = new RedisStore({ url: redisUrl(), keyPrefix: `${uniqueName('tr')}:`, ...options });
  opened.push(store);
  return store;
}

runTraceStoreConformance({
  name: 'RedisTraceStore',
  skip: backend.skip,
  create: async () => {
    const threads = (await backend.create()) as RedisStore;
    owners.set(threads.traces, threads);
    return threads.traces;
  },
  destroy: async (traces) => backend.destroy(owners.get(traces)!),
});

describe.skipIf(Boolean(backend.skip))('RedisTraceStore', () => {
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('is the trace store of its RedisStore, sharing its key prefix', async () => {
    const threads = open();
    expect(await traceStoreFor(threads)).toBe(threads.traces);
    await threads.traces.saveTrace(storedTrace('t1', { chatId: 'c1' }));
    const sibling = new RedisStore({ url: redisUrl(), keyPrefix: 'other-prefix-never-used:' });
    opened.push(sibling);
    expect(await sibling.traces.listTraces()).toEqual([]);
  });

  it('keeps at most maxTraces, dropping the oldest and their index entries', async () => {
    const threads = open({ traces: { maxTraces: 2 } });
    for (const [id, at] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await threads.traces.saveTrace(storedTrace(id, { chatId: 'c1', runId: `r-${id}`, at }));
    expect((await threads.traces.listTraces()).map((t) => t.traceId)).toEqual(['c', 'b']);
    expect(await threads.traces.getTrace('a')).toBeNull();
    expect(await threads.traces.listTraces({ runId: 'r-a' })).toEqual([]);
    expect(await threads.traces.deleteTraces({ chatId: 'c1' })).toBe(2);
  });

  it('lets traces expire after ttlSeconds, and drops the expired ids from its lists', async () => {
    const threads = open({ traces: { ttlSeconds: 1, maxTraces: 0 } });
    await threads.traces.saveTrace(storedTrace('gone', { chatId: 'c1', at: 1 }));
    expect(await threads.traces.getTrace('gone')).not.toBeNull();
    await vi.waitFor(async () => expect(await threads.traces.getTrace('gone')).toBeNull(), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await threads.traces.listTraces()).toEqual([]);
    await threads.traces.saveTrace(storedTrace('kept', { chatId: 'c1', at: 2 }));
    expect((await threads.traces.listTraces({ chatId: 'c1' })).map((t) => t.traceId)).toEqual([
      'kept',
    ]);
  });

  it('refuses a negative or fractional option, naming it', () => {
    const run = async () => null;
    expect(() => new RedisTraceStore(run, { ttlSeconds: -1 })).toThrow(/traces\.ttlSeconds is -1/);
    expect(() => new RedisTraceStore(run, { maxTraces: 1.5 })).toThrow(/traces\.maxTraces/);
  });
});
