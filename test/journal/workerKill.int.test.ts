/**
 * Must show (issue 29, step journal): a call whose tool appends a line to a file runs on a
 * `colloquy worker` (Redis queue, Postgres store); the worker is SIGKILLed after the tool ran (and
 * its output was journaled) and before the call ended. Another worker retries the call: it
 * replays the model answer and the tool output from the journal, asks the model only for the
 * unfinished step, and the file holds the line once. The journal is gone once the call is done.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalThreadId } from '../../src/agency/journal/stepJournal.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import {
  ROOT,
  postJson,
  startServer,
  startWorker,
  threadsOf,
  type Child,
} from '../queue/cluster.js';
import { ledgerAgency } from './fixtures/ledgerAgencies.js';

const skip = redisSkip() ?? postgresSkip();

/** Polls `check` every 20 ms until it returns a value, for at most `ms`. */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(Boolean(skip))(
  `step journal: a worker SIGKILLed after a tool ran${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const prefix = uniqueName('journal');
    let project = '';
    let work = '';
    let server: Child & { url: string };
    let store: PostgresStore;
    let queue: Queue;
    let redis: Redis;
    const children: Child[] = [];

    beforeAll(async () => {
      project = mkdtempSync(path.join(tmpdir(), 'colloquy-journal-project-'));
      work = mkdtempSync(path.join(tmpdir(), 'colloquy-journal-work-'));
      const agencies = path.join(ROOT, 'test', 'journal', 'fixtures', 'ledgerAgencies.ts');
      writeFileSync(path.join(project, 'colloquy.yaml'), `agencies: ${JSON.stringify(agencies)}\n`);
      store = new PostgresStore({ connectionString: postgresUrl()! });
      redis = new Redis(redisUrl()!, { maxRetriesPerRequest: 3 });
      queue = new Queue('work', { connection: redis, prefix });
      server = await startServer(project, redisUrl()!, postgresUrl()!, prefix);
      children.push(server);
    }, 60_000);

    afterAll(async () => {
      for (const child of children) child.process.kill('SIGKILL');
      await queue?.close();
      redis?.disconnect();
      await store?.close();
      for (const dir of [project, work]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the retried call finishes, the file has the line once, the model is asked only for the unfinished step', async () => {
      const worker = () =>
        startWorker(project, redisUrl()!, postgresUrl()!, prefix, ['--lock-duration', '2000']);
      const first = await worker();
      children.push(first);
      const chatId = uniqueName('ledger');
      const message = `dir:${work}`;
      const reply = postJson(`${server.url}/agencies/ledger/responses`, { message, chatId });

      // The tool ran on the first worker ...
      await until('the tool to run', async () =>
        existsSync(path.join(work, 'ready')) ? true : undefined,
      );
      const job = await until('the call job', async () =>
        (await queue.getJobs(['active'])).find((j) => j?.data?.chatId === chatId),
      );
      const callId = job.data.callId as string;
      // ... and its output is journaled: the worker dies before the call ends.
      const journaled = await until('the tool step in the journal', async () => {
        const items = await store.readItems(journalThreadId(callId));
        const kinds = items.map((entry) => (entry.item as unknown as { kind: string }).kind);
        return kinds.includes('tool') ? kinds : undefined;
      });
      expect(journaled).toEqual(['model', 'tool']);
      first.process.kill('SIGKILL');
      await first.exited;
      writeFileSync(path.join(work, 'release'), 'go');

      children.push(await worker());
      const result = await reply;
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.finalOutput).toBe('Recorded the payment.');
      // The job was retried (its worker died), and the tool did not run again.
      expect((await queue.getJob(job.id!))!.stalledCounter).toBeGreaterThanOrEqual(1);
      expect(readFileSync(path.join(work, 'ledger.txt'), 'utf8')).toBe('paid invoice 42\n');
      expect(readFileSync(path.join(work, 'keys'), 'utf8').trim().split('\n')).toHaveLength(1);
      // The first worker was asked both steps (it died holding the second); the retry only the second.
      expect(readFileSync(path.join(work, 'asked'), 'utf8')).toBe(
        'tool step\nfinal step\nfinal step\n',
      );
      // The chat's threads are those of one uninterrupted run; the journal is deleted.
      const memory = new MemoryStore();
      // (The same message in one process: its tool appends to the file, checked above.)
      await ledgerAgency(memory).getResponse(message, { chatId });
      expect(Object.values(await threadsOf(store, chatId))).toEqual(
        Object.values(await threadsOf(memory, chatId)),
      );
      await until('the journal to be deleted', async () =>
        (await store.getThread(journalThreadId(callId))) === null ? true : undefined,
      );
    }, 90_000);
  },
);
