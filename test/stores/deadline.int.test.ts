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
import type { ThreadStore } from '../../src/stores/types.js';
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
