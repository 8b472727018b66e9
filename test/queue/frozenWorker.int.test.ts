/**
 * A worker frozen (SIGSTOP) past its lease while running a call, whose call another worker then
 * runs again, must not write its own late result when it is thawed: the lease fence refuses its
 * writes and it abandons the run with a log line. Real `colloquy worker` processes on the test
 * Redis (queue) with a Redis store and with a Postgres store. The chat must end `A a B b`
 * (before the fence it could end `A a B b A a`, or with A twice).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { QueueClient } from '../../src/queue/client.js';
import { openStore } from '../../src/stores/openStore.js';
import type { ThreadStore } from '../../src/stores/types.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import { startWorker, writeProject, type Child } from './cluster.js';
import { chatLines } from './kit.js';

const skip = redisSkip() ?? postgresSkip();
const LOCK_MS = 1_500;

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function last(events: AsyncIterable<AgencyStreamEvent>): Promise<AgencyStreamEvent> {
  let final: AgencyStreamEvent | undefined;
  for await (const event of events) final = event;
  return final!;
}

/** Reads who holds a lease in the store the workers use. */
type HolderOf = (key: string) => Promise<string | null>;

async function frozenWorkerRun(
  project: string,
  storeUrl: string,
  holderOf: HolderOf,
  store: ThreadStore,
): Promise<{ lines: string[]; abandoned: boolean }> {
  const queue = redisUrl()!;
  const prefix = uniqueName('frozen');
  const client = new QueueClient({ queue, prefix });
  const children: Child[] = [];
  const lock = ['--lock-duration', String(LOCK_MS)];
  try {
    const first = await startWorker(project, queue, storeUrl, prefix, lock);
    children.push(first);
    const chatId = uniqueName('chat');
    const leaseKey = `queue:chat:echo:${chatId}`;
    // `hold:` makes the model wait 4 s: the worker is frozen in the middle of the call.
    const callA = last(client.call({ agency: 'echo', chatId, message: 'hold: A', stream: false }));
    const owner = await until('the first worker to hold the chat', () =>
      holderOf(leaseKey).then((held) => held ?? undefined),
    );
    first.process.kill('SIGSTOP');
    try {
      const second = await startWorker(project, queue, storeUrl, prefix, lock);
      children.push(second);
      // The second worker takes the stalled job and the chat's lease.
      await until('the second worker to take the chat', async () => {
        const held = await holderOf(leaseKey);
        return held !== null && held !== owner ? held : undefined;
      });
    } finally {
      first.process.kill('SIGCONT');
    }
    const a = await callA;
    expect(a.type, JSON.stringify(a)).toBe('run_completed');
    const b = await last(client.call({ agency: 'echo', chatId, message: 'B', stream: false }));
    expect(b.type, JSON.stringify(b)).toBe('run_completed');
    // The thawed worker has had its chance to write: it logs that it abandoned the run.
    const abandoned = await until(
      'the thawed worker to abandon its run',
      async () => (/Abandoning the run of call/.test(first.output()) ? true : undefined),
      45_000,
    ).catch(() => false);
    return { lines: await chatLines(store, chatId), abandoned };
  } finally {
    for (const child of children) {
      child.process.kill('SIGCONT');
      child.process.kill('SIGKILL');
    }
    await Promise.all(children.map((child) => child.exited));
    await client.close();
  }
}

const expected = ['user: hold: A', 'assistant: echo: hold: A', 'user: B', 'assistant: echo: B'];

describe.skipIf(Boolean(skip))(
  `a worker frozen past its lease writes nothing when thawed${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let project = '';
    beforeAll(() => {
      project = writeProject();
      process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it('on a Redis store', { timeout: 180_000 }, async () => {
      const url = redisUrl()!;
      const store = await openStore(url);
      const client = new QueueClient({ queue: url, prefix: uniqueName('probe') });
      try {
        const holderOf: HolderOf = (key) => client.redis.get(`colloquy:lease:${key}`);
        const { lines, abandoned } = await frozenWorkerRun(project, url, holderOf, store);
        expect(lines).toEqual(expected);
        expect(abandoned).toBe(true);
      } finally {
        await client.close();
        await store.close();
      }
    });

    it('on a Postgres store', { timeout: 180_000 }, async () => {
      const url = postgresUrl()!;
      const store = await openStore(url);
      const pool = new pg.Pool({ connectionString: url });
      try {
        await store.listThreads({ chatId: 'none' }); // creates the schema before the probes
        const holderOf: HolderOf = async (key) => {
          const { rows } = await pool.query(
            'SELECT owner FROM public.colloquy_leases WHERE lease_key = $1 AND expires_at > clock_timestamp()',
            [key],
          );
          return (rows[0] as { owner: string } | undefined)?.owner ?? null;
        };
        const { lines, abandoned } = await frozenWorkerRun(project, url, holderOf, store);
        expect(lines).toEqual(expected);
        expect(abandoned).toBe(true);
      } finally {
        await pool.end();
        await store.close();
      }
    });
  },
);
