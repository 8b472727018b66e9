// Redis and Postgres SIGKILLed twice mid-run and restarted: no acknowledged item is lost.
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/stores/postgres.js';
import { RedisStore } from '../../src/stores/redis.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { postgresSkip, redisSkip } from '../setup/serviceUrls.js';
import { writeThroughKills } from './serverKill.js';
import { startOwnPostgres, startOwnRedis, type OwnServer } from './serverProcess.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function run(server: OwnServer, store: ThreadStore, kind: string): Promise<void> {
  cleanups.push(() => server.stop());
  cleanups.push(() => store.close());
  const figures = await writeThroughKills(server, store);
  console.info(
    `server kill, ${kind}: ${figures.acknowledged} acknowledged appends through ${figures.kills} SIGKILLs (${figures.rejected} appends rejected while down), 0 lost`,
  );
  expect(figures.kills).toBe(2);
  expect(figures.rejected).toBeGreaterThan(0);
}

describe.skipIf(Boolean(redisSkip()))(
  `Redis killed and restarted${redisSkip() ? ` (skipped: ${redisSkip()})` : ''}`,
  () => {
    it('keeps every acknowledged append (appendonly, fsync always)', async () => {
      const server = await startOwnRedis();
      await run(server, new RedisStore({ url: server.url }), 'redis');
    }, 120_000);
  },
);

describe.skipIf(Boolean(postgresSkip()))(
  `Postgres killed and restarted${postgresSkip() ? ` (skipped: ${postgresSkip()})` : ''}`,
  () => {
    it('keeps every acknowledged append (fsync on)', async () => {
      const server = await startOwnPostgres();
      await run(server, new PostgresStore({ connectionString: server.url }), 'postgres');
    }, 120_000);
  },
);
