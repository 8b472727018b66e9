/**
 * The shared subscriber on the test Redis: one SUBSCRIBE per channel however many listen,
 * dropped with the last listener.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
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
    await sleep(50);
    stopA();
    await publisher.publish(channel, 'two');
    await sleep(50);
    expect(a).toEqual(['one']);
    expect(b).toEqual(['one', 'two']);
    stopB();
    await sleep(50);
    expect(await publisher.publish(channel, 'three')).toBe(0); // nobody subscribed any more
    await hub.close();
    await closeConnection(publisher);
  });
});
