/**
 * Operation timeouts of the networked stores: a frozen server (SIGSTOP) makes operations fail
 * with a transient StoreError within `operationTimeoutMs` instead of hanging, and the store works
 * again once the server runs again. Uses its own Redis and Postgres (scripts/services.sh), so
 * that freezing them stalls no other test.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import { RedisStore } from '../../src/stores/redis.js';
import type { ThreadItem } from '../../src/stores/item.js';
import type { TraceStore } from '../../src/stores/traceStore.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { storedTrace } from '../../src/testing/traceStoreConformance.js';
import { postgresSkip, redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { ROOT } from '../queue/cluster.js';

const skip = redisSkip() ?? postgresSkip();
const SCRIPT = path.join(ROOT, 'scripts', 'services.sh');
const TIMEOUT_MS = 600;

/** The pid in `file` and, for Postgres, every backend it started. */
function pids(file: string): number[] {
  const main = Number(readFileSync(file, 'utf8').split('\n')[0]);
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(main)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children (Redis)
  }
  return [main, ...children];
}

function signal(list: number[], name: NodeJS.Signals): void {
  for (const pid of list) process.kill(pid, name);
}

async function frozenFails(store: ThreadStore, pidFile: string): Promise<void> {
  const threadId = uniqueName('frozen');
  await store.append(threadId, [{ id: 'a', item: { role: 'user', content: 'before' } }], {
    expectedVersion: 0,
  });
  const frozen = pids(pidFile);
  signal(frozen, 'SIGSTOP');
  const started = Date.now();
  try {
    const error = await store
      .append(threadId, [{ id: 'b', item: { role: 'user', content: 'while frozen' } }], {
        expectedVersion: 1,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).transient).toBe(true);
    expect((error as Error).message).toMatch(/within 600 ms \(operationTimeoutMs\)/);
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(TIMEOUT_MS + 1_500);
  } finally {
    signal(frozen, 'SIGCONT');
  }
  // Back to normal: reads work (the frozen append may or may not have landed; it said so).
  const items = await store.readItems(threadId);
  expect(items[0]!.id).toBe('a');
}

/** Ten operations of every kind at once on a frozen server: each a transient StoreError in time. */
async function frozenManyFail(
  store: ThreadStore & { traces: TraceStore },
  pidFile: string,
): Promise<void> {
  const threadId = uniqueName('many');
  await store.append(threadId, [{ id: 'a', item: { role: 'user', content: 'before' } }], {
    expectedVersion: 0,
    chatId: 'c',
  });
  const frozen = pids(pidFile);
  signal(frozen, 'SIGSTOP');
  const started = Date.now();
  try {
    const item: ThreadItem = { id: 'b', item: { role: 'user', content: 'frozen' } };
    const operations: Array<[string, () => Promise<unknown>]> = [
      ['append', () => store.append(threadId, [item], { expectedVersion: 1 })],
      ['readItems', () => store.readItems(threadId)],
      ['getThread', () => store.getThread(threadId)],
      ['listThreads', () => store.listThreads({ chatId: 'c' })],
      ['setMetadata', () => store.setMetadata(threadId, { frozen: true })],
      ['fork', () => store.fork(threadId, `${threadId}-fork`)],
      ['acquire lease', () => store.leases!.acquire(`lease-${threadId}`, 'me', 5_000)],
      ['listCheckpoints', () => store.listCheckpoints('c')],
      ['saveTrace', () => store.traces.saveTrace(storedTrace(`trace-${threadId}`))],
      ['listTraces', () => store.traces.listTraces({ chatId: 'c' })],
    ];
    const outcomes = await Promise.all(
      operations.map(async ([name, run]) => {
        const error = await run().then(
          () => null,
          (e: unknown) => e,
        );
        return { name, error, ms: Date.now() - started };
      }),
    );
    const wrong = outcomes
      .filter(
        ({ error, ms }) =>
          !(error instanceof StoreError) || error.transient !== true || ms > TIMEOUT_MS + 2_000,
      )
      .map(({ name, error, ms }) => `${name} after ${ms} ms: ${String(error)}`);
    expect(wrong).toEqual([]);
  } finally {
    signal(frozen, 'SIGCONT');
  }
  // Back to normal once the server runs again.
  expect((await store.readItems(threadId))[0]!.id).toBe('a');
}

describe.skipIf(Boolean(skip))(
  `store operation timeouts on a frozen server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let stateDir = '';
    let redisUrl = '';
    let postgresUrl = '';
    beforeAll(() => {
      const out = execFileSync(SCRIPT, ['start'], { encoding: 'utf8', timeout: 120_000 });
      const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(out)?.[1] ?? '';
      stateDir = value('STATE_DIR');
      redisUrl = value('REDIS_URL');
      postgresUrl = value('POSTGRES_URL');
    }, 120_000);
    afterAll(() => {
      if (stateDir) execFileSync(SCRIPT, ['stop', stateDir], { timeout: 60_000 });
    });

    it('Redis: a SIGSTOPped server fails the append with a StoreError in time', async () => {
      const store = new RedisStore({ url: redisUrl, operationTimeoutMs: TIMEOUT_MS });
      try {
        await frozenFails(store, path.join(stateDir, 'redis.pid'));
      } finally {
        await store.close();
      }
    });

    it('Redis: ten operations of every kind on a frozen server are all transient, in time', async () => {
      const store = new RedisStore({ url: redisUrl, operationTimeoutMs: TIMEOUT_MS });
      try {
        await frozenManyFail(store, path.join(stateDir, 'redis.pid'));
      } finally {
        await store.close();
      }
    });

    it('Postgres: ten operations of every kind on a frozen server are all transient, in time', async () => {
      const store = new PostgresStore({
        connectionString: postgresUrl,
        operationTimeoutMs: TIMEOUT_MS,
      });
      try {
        await frozenManyFail(store, path.join(stateDir, 'postgres.pid'));
      } finally {
        await store.close();
      }
    });

    for (const kind of ['Redis', 'Postgres'] as const) {
      it(`${kind}: a store with operations stuck on a frozen server closes in time`, async () => {
        const store =
          kind === 'Redis'
            ? new RedisStore({ url: redisUrl, operationTimeoutMs: TIMEOUT_MS })
            : new PostgresStore({ connectionString: postgresUrl, operationTimeoutMs: TIMEOUT_MS });
        await store.listThreads({ chatId: 'warm-up' });
        const frozen = pids(path.join(stateDir, kind === 'Redis' ? 'redis.pid' : 'postgres.pid'));
        signal(frozen, 'SIGSTOP');
        try {
          const stuck = store.getThread('stuck').catch((e: unknown) => e);
          const started = Date.now();
          const closed = await Promise.race([
            store.close().then(() => 'closed'),
            new Promise((resolve) => setTimeout(() => resolve('still closing'), TIMEOUT_MS * 5)),
          ]);
          expect(closed).toBe('closed');
          expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
          expect(await stuck).toBeInstanceOf(StoreError);
        } finally {
          signal(frozen, 'SIGCONT');
        }
      });
    }

    it('Postgres: a store first used while the server is frozen fails in time, and closes', async () => {
      const pidFile = path.join(stateDir, 'postgres.pid');
      const frozen = pids(pidFile);
      signal(frozen, 'SIGSTOP');
      const store = new PostgresStore({
        connectionString: postgresUrl,
        schema: uniqueName('frozen'),
        operationTimeoutMs: TIMEOUT_MS,
      });
      const started = Date.now();
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? store.listThreads() : store.getThread(`t${i}`)).then(
              () => 'answered',
              (e: unknown) =>
                e instanceof StoreError && e.transient ? 'transient' : `other: ${String(e)}`,
            ),
          ),
        );
        expect(outcomes).toEqual(Array.from({ length: 20 }, () => 'transient'));
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
        const closing = Date.now();
        await store.close();
        expect(Date.now() - closing).toBeLessThan(TIMEOUT_MS + 2_000);
      } finally {
        signal(frozen, 'SIGCONT');
      }
    });

    it('Postgres: a SIGSTOPped server fails the append with a StoreError in time', async () => {
      const store = new PostgresStore({
        connectionString: postgresUrl,
        operationTimeoutMs: TIMEOUT_MS,
      });
      try {
        await frozenFails(store, path.join(stateDir, 'postgres.pid'));
      } finally {
        await store.close();
      }
    });
  },
);
