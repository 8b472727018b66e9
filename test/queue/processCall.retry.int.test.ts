/**
 * A call retried while its first attempt still runs (its BullMQ lock lost, as in a Redis outage
 * or a long pause of the worker): the retry waits for the chat, finds the first attempt's
 * outcome and only returns it. The chat holds one user item and one answer, and the model ran once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { chatLines, startKit, type Kit } from './kit.js';

const skip = redisSkip();

async function collect(iterable: AsyncIterable<AgencyStreamEvent>): Promise<AgencyStreamEvent[]> {
  const events: AgencyStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** Waits until the queue has an active job; returns its id. */
async function activeJob(kit: Kit): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const [job] = await kit.client.queue.getActive();
    if (job?.id) return job.id;
    await sleep(10);
  }
  throw new Error('no job became active');
}

describe.skipIf(Boolean(skip))(
  `a call retried beside its live first attempt${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let kit: Kit | undefined;
    afterEach(async () => {
      await kit?.close();
      kit = undefined;
    });

    it('writes its items once: the retry waits for the chat and returns the outcome', async () => {
      kit = await startKit({
        workers: 2,
        delay: (text) => (text.startsWith('slow') ? 1_200 : 0),
        worker: { lockDurationMs: 1_000, stalledIntervalMs: 100 },
      });
      const chatId = uniqueName('retry');
      const events = collect(
        kit.client.call({ agency: 'echo', chatId, message: 'slow one', stream: false }),
      );
      const jobId = await activeJob(kit);
      // The lock goes as it would in an outage: BullMQ's stalled check hands the job to a worker
      // while the first attempt still runs.
      await kit.client.redis.del(`${kit.prefix}:work:${jobId}:lock`);
      const last = (await events).at(-1);
      expect(last?.type).toBe('run_completed');
      // Let the retry finish as well (it waits for the chat, then answers from the outcome).
      for (let i = 0; i < 100 && (await kit.client.queue.getJobState(jobId)) !== 'completed'; i++)
        await sleep(50);
      expect(await kit.client.queue.getJobState(jobId)).toBe('completed');
      const outcomes = kit.workers.flatMap((w) => w.jobs.map((job) => job.outcome));
      expect(outcomes).toContain('requeued'); // the retry ran, and had to wait for the chat
      expect(kit.workers.reduce((sum, w) => sum + w.model.started, 0)).toBe(1);
      expect(await chatLines(kit.store, chatId)).toEqual([
        'user: slow one',
        'assistant: echo: slow one',
      ]);
    }, 20_000);

    it('a second call on the chat queued meanwhile runs after, on the complete chat', async () => {
      kit = await startKit({
        workers: 2,
        delay: (text) => (text.startsWith('slow') ? 800 : 0),
        worker: { lockDurationMs: 1_000, stalledIntervalMs: 100 },
      });
      const chatId = uniqueName('retry2');
      const first = collect(
        kit.client.call({ agency: 'echo', chatId, message: 'slow first', stream: false }),
      );
      const jobId = await activeJob(kit);
      await kit.client.redis.del(`${kit.prefix}:work:${jobId}:lock`);
      const second = collect(
        kit.client.call({ agency: 'echo', chatId, message: 'then second', stream: false }),
      );
      expect((await first).at(-1)?.type).toBe('run_completed');
      expect((await second).at(-1)?.type).toBe('run_completed');
      expect(await chatLines(kit.store, chatId)).toEqual([
        'user: slow first',
        'assistant: echo: slow first',
        'user: then second',
        'assistant: echo: then second',
      ]);
    }, 20_000);
  },
);
