/**
 * The shared subscriber on the test Redis: one SUBSCRIBE per channel however many listen,
 * dropped with the last listener.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { closeConnection } from '../../src/queue/connection.js';
import { SubscriptionHub } from '../../src/queue/hub.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';
const skip = redisSkip();

describe.skipIf(Boolean(skip))(`SubscriptionHub${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('delivers to every listener of a channel and unsubscribes after the last one leaves', async () => {
    const hub = new SubscriptionHub(new Redis(redisUrl()!));
    const publisher = new Redis(redisUrl()!);
    const channel = uniqueName('hub');
    const a: string[] = [];
    const b: string[] = [];
    const stopA = await hub.listen(channel, (message) => a.push(message));
    const stopB = await hub.listen(channel, (message) => b.push(message));
    expect(await publisher.publish(channel, 'one')).toBe(1); // one subscription for both
    await vi.waitFor(() => expect([a, b]).toEqual([['one'], ['one']]));
    stopA();
    await publisher.publish(channel, 'two');
    await vi.waitFor(() => expect(b).toEqual(['one', 'two']));
    expect(a).toEqual(['one']);
    stopB();
    // Nobody subscribed any more, once the UNSUBSCRIBE has reached Redis.
    await vi.waitFor(async () => expect(await publisher.publish(channel, 'three')).toBe(0));
    await hub.close();
    await closeConnection(publisher);
  });
});
