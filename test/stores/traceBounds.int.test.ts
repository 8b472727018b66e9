// Trace bounds of the Redis and Postgres trace stores, and Postgres retention (Redis has its own
// cap, tested in redisTraces.int.test.ts).
import { describe, it } from 'vitest';
import { PostgresStore } from '../../src/stores/postgres.js';
import type { RedisStore } from '../../src/stores/redis.js';
import type { TraceRetention } from '../../src/stores/traceBounds.js';
import { postgresUrl, uniqueName } from '../setup/serviceUrls.js';
import { postgresBackend, redisBackend } from './isolatedStores.js';
import { excessTracesGo, hugeTraceIsCut, oldTracesGo } from './traceBounds.js';

const redis = redisBackend();
const postgres = postgresBackend();

describe.skipIf(Boolean(redis.skip))('RedisTraceStore bounds', () => {
  it('cuts every text of a trace with a 3 MB error to 2,000 characters', async () => {
    const store = (await redis.create()) as RedisStore;
    try {
      await hugeTraceIsCut(store.traces);
    } finally {
      await redis.destroy(store);
    }
  });
});

async function withPostgres(
  retention: TraceRetention | undefined,
  work: (store: PostgresStore) => Promise<void>,
): Promise<void> {
  const schema = uniqueName('test');
  const store = new PostgresStore({
    connectionString: postgresUrl()!,
    schema,
    ...(retention ? { traces: retention } : {}),
  });
  try {
    await work(store);
  } finally {
    await store.close();
    await postgres.drop(schema);
  }
}

describe.skipIf(Boolean(postgres.skip))('PostgresTraceStore bounds and retention', () => {
  it('cuts every text of a trace with a 3 MB error to 2,000 characters', async () => {
    await withPostgres(undefined, (store) => hugeTraceIsCut(store.traces));
  });

  it('drops the oldest traces beyond traces.maxTraces', async () => {
    await withPostgres({ maxTraces: 3 }, (store) => excessTracesGo(store.traces));
  });

  it('drops traces older than the default 30 days', async () => {
    await withPostgres(undefined, (store) => oldTracesGo(store.traces));
  });
});
