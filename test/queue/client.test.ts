/**
 * A Redis that cannot be reached fails a queued call at once with QUEUE_UNAVAILABLE (the client
 * on a real Redis is client.int.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { QueueClient } from '../../src/queue/client.js';
import { QueueUnavailableError } from '../../src/queue/connection.js';
async function collect(iterable: AsyncIterable<AgencyStreamEvent>): Promise<AgencyStreamEvent[]> {
  const events: AgencyStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('QueueClient without Redis', () => {
  it('fails a call at once with QUEUE_UNAVAILABLE, naming the queue and the fix', async () => {
    // A port nothing listens on (the discard port on loopback).
    const client = new QueueClient({ queue: 'redis://127.0.0.1:9', enqueueTimeoutMs: 2_000 });
    const started = Date.now();
    const call = collect(
      client.call({ agency: 'echo', chatId: 'c1', message: 'hi', stream: false }),
    );
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueUnavailableError);
    expect((error as QueueUnavailableError).code).toBe('QUEUE_UNAVAILABLE');
    expect((error as Error).message).toMatch(
      /Could not queue a call to agency "echo" in chat "c1" on redis:\/\/127\.0\.0\.1:9.*nothing was queued/,
    );
    expect(Date.now() - started).toBeLessThan(2_500);
    await expect(client.cancelChat('echo', 'c1')).rejects.toThrow(QueueUnavailableError);
    await client.close();
  });
});
