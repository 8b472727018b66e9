/**
 * Closing connections: at once when Redis was never reached (the shared subscriber on a real
 * Redis is hub.int.test.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { closeConnection } from '../../src/queue/connection.js';
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
