/**
 * The shared subscriber: one SUBSCRIBE per channel however many listen, dropped with the last
 * listener; and closing connections, at once when Redis was never reached.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { closeConnection } from '../../src/queue/connection.js';
import { SubscriptionHub } from '../../src/queue/hub.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';

const skip = redisSkip();

describe('closeConnection', () => {
  it('returns at once for a connection that never came up', async () => {
    const redis = new Redis('redis://127.0.0.1:9', { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    const started = Date.now();
    await closeConnection(redis);
    expect(Date.now() - started).toBeLessThan(500);
    for (let i = 0; i < 50 && redis.status !== 'end'; i++) await sleep(10);
    expect(redis.status).toBe('end'); // no reconnection attempts left behind
  });
});

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
