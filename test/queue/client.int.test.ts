/**
 * The producer side on the test Redis, with in-process workers: events reach the client that
 * queued the call (its inbox) and no other; a call cancelled before a worker takes it never runs;
 * a call whose job vanished ends with a clear error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { QueueClient } from '../../src/queue/client.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { chatLines, startKit, type Kit } from './kit.js';
const skip = redisSkip();

async function collect(iterable: AsyncIterable<AgencyStreamEvent>): Promise<AgencyStreamEvent[]> {
  const events: AgencyStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe.skipIf(Boolean(skip))(`QueueClient on Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });

  it('relays a streamed call’s events to its own client only, ending with run_completed', async () => {
    kit = await startKit({ delay: () => 20 });
    const other = new QueueClient({ queue: kit.queue, prefix: kit.prefix });
    try {
      const chatA = uniqueName('a');
      const chatB = uniqueName('b');
      const [a, b] = await Promise.all([
        collect(
          kit.client.call({ agency: 'echo', chatId: chatA, message: 'from a', stream: true }),
        ),
        collect(other.call({ agency: 'echo', chatId: chatB, message: 'from b', stream: true })),
      ]);
      const text = (events: AgencyStreamEvent[]) => JSON.stringify(events);
      expect(a.at(-1)).toMatchObject({
        type: 'run_completed',
        result: { finalOutput: 'echo: from a' },
      });
      expect(b.at(-1)).toMatchObject({
        type: 'run_completed',
        result: { finalOutput: 'echo: from b' },
      });
      // Streamed: the model's deltas came through, each call's to its own client.
      expect(a.some((event) => event.type === 'raw_model_stream_event')).toBe(true);
      expect(text(a)).not.toContain('from b');
      expect(text(b)).not.toContain('from a');
      // Not streamed: only the last event travels.
      const plain = await collect(
        kit.client.call({ agency: 'echo', chatId: chatA, message: 'again', stream: false }),
      );
      expect(plain.map((event) => event.type)).toEqual(['run_completed']);
      expect(await chatLines(kit.store, chatA)).toEqual([
        'user: from a',
        'assistant: echo: from a',
        'user: again',
        'assistant: echo: again',
      ]);
    } finally {
      await other.close();
    }
  });

  it('a call cancelled before any worker took it ends ABORTED and never runs', async () => {
    kit = await startKit({ workers: 0 });
    const chatId = uniqueName('early');
    const events = collect(
      kit.client.call({ agency: 'echo', chatId, message: 'never', stream: false }),
    );
    let cancelled = 0;
    for (let i = 0; i < 50 && cancelled === 0; i++) {
      await sleep(20);
      cancelled = await kit.client.cancelChat('echo', chatId, 'changed my mind');
    }
    expect(cancelled).toBe(1);
    const worker = await kit.addWorker();
    expect((await events).at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'ABORTED', message: 'changed my mind' },
    });
    for (let i = 0; i < 50 && worker.jobs.length === 0; i++) await sleep(20);
    expect(worker.model.started).toBe(0);
    expect(await chatLines(kit.store, chatId)).toEqual([]);
    expect(await kit.client.cancelChat('echo', chatId)).toBe(0);
  });

  it('a call whose job vanished from the queue ends with an error saying to send it again', async () => {
    kit = await startKit({ workers: 0, client: { pollMs: 50 } });
    const chatId = uniqueName('gone');
    const events = collect(
      kit.client.call({ agency: 'echo', chatId, message: 'lost', stream: false }),
    );
    let removed = false;
    for (let i = 0; i < 50 && !removed; i++) {
      await sleep(20);
      const [job] = await kit.client.queue.getWaiting();
      if (job) removed = (await kit.client.queue.remove(job.id!)) === 1;
    }
    expect(removed).toBe(true);
    expect((await events).at(-1)).toMatchObject({
      type: 'error',
      error: {
        code: 'QUEUE_UNAVAILABLE',
        message: expect.stringMatching(/no longer in the queue/),
      },
    });
  });

  it('an aborted signal ends the call at once and cancels it on its worker', async () => {
    kit = await startKit({ delay: (text) => (text.startsWith('hold') ? 5_000 : 0) });
    const chatId = uniqueName('leave');
    const controller = new AbortController();
    const started = Date.now();
    const events = collect(
      kit.client.call(
        { agency: 'echo', chatId, message: 'hold on', stream: true },
        controller.signal,
      ),
    );
    const [worker] = kit.workers;
    for (let i = 0; i < 100 && worker!.model.started === 0; i++) await sleep(20);
    controller.abort();
    expect((await events).at(-1)).toMatchObject({ type: 'error', error: { code: 'ABORTED' } });
    for (let i = 0; i < 100 && worker!.jobs.length === 0; i++) await sleep(20);
    expect(worker!.jobs[0]).toMatchObject({ name: 'agency-call', outcome: 'completed' });
    expect(Date.now() - started).toBeLessThan(4_000); // the model's 5 s wait was cut short
    const [job] = await kit.client.queue.getCompleted();
    expect(job!.returnvalue).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });

  it('a worker serving no such agency answers with AGENCY_INVALID', async () => {
    kit = await startKit();
    const events = await collect(
      kit.client.call({ agency: 'nobody', chatId: uniqueName('x'), message: 'hi', stream: false }),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: {
        code: 'AGENCY_INVALID',
        message: expect.stringMatching(/serves no agency "nobody"/),
      },
    });
  });
});
