// PostgresTraceStore (a PostgresStore's `traces`, table colloquy_traces from migration 3) against
// the test Postgres started by test/setup/services.ts: the trace-store conformance suite and the
// link to the thread store. Each store gets its own schema, dropped afterwards.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/stores/postgres.js';
import type { TraceStore } from '../../src/stores/traceStore.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { runTraceStoreConformance, storedTrace } from '../../src/testing/traceStoreConformance.js';
import { postgresUrl, uniqueName } from '../setup/serviceUrls.js';
import { postgresBackend } from './isolatedStores.js';

const base = postgresBackend();
const owners = new WeakMap<TraceStore, PostgresStore>();
// The conformance fixtures start in January 2026: the default 30-day retention would drop them.
const schemas = new WeakMap<PostgresStore, string>();
const backend = {
  skip: base.skip,
  create: async () => {
    const schema = uniqueName('test');
    const store = new PostgresStore({
      connectionString: postgresUrl()!,
      schema,
      traces: { maxAgeMs: 0 },
    });
    schemas.set(store, schema);
    return store;
  },
  destroy: async (store: PostgresStore) => {
    await store.close();
    await base.drop(schemas.get(store)!);
  },
};

runTraceStoreConformance({
  name: 'PostgresTraceStore',
  skip: backend.skip,
  create: async () => {
    const threads = await backend.create();
    owners.set(threads.traces, threads);
    return threads.traces;
  },
  destroy: async (traces) => backend.destroy(owners.get(traces)!),
});

describe.skipIf(Boolean(backend.skip))('PostgresTraceStore', () => {
  it('is the trace store of its PostgresStore, in the same schema', async () => {
    const threads = await backend.create();
    try {
      expect(await traceStoreFor(threads)).toBe(threads.traces);
      await threads.traces.saveTrace(storedTrace('t1', { chatId: 'c1', runId: 'r1' }));
      const client = new pg.Client({ connectionString: postgresUrl() });
      await client.connect();
      try {
        const schema = (
          await client.query(
            "SELECT table_schema FROM information_schema.tables WHERE table_name = 'colloquy_traces' AND table_schema LIKE 'test_%'",
          )
        ).rows.map((row: { table_schema: string }) => row.table_schema);
        expect(schema.length).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
      expect((await threads.traces.listTraces({ runId: 'r1' }))[0]!.traceId).toBe('t1');
    } finally {
      await backend.destroy(threads);
    }
  });

  it('fails a closed store with a StoreError, like the thread store', async () => {
    const threads = await backend.create();
    await backend.destroy(threads);
    await expect(threads.traces.listTraces()).rejects.toThrow(/after close\(\)/);
  });
});
