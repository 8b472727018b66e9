// RedisStore options: a caller-owned client, and key prefixes that keep stores apart.
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/stores/redis.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';
import { redisBackend } from './isolatedStores.js';

const entry = { id: 'm1', item: { role: 'user' as const, content: 'hi' } };

describe.skipIf(Boolean(redisSkip()))(
  `RedisStore options${redisSkip() ? ` (skipped: ${redisSkip()})` : ''}`,
  () => {
    it('uses a caller-owned client, connecting it if needed and never closing it', async () => {
      const client = createClient({ url: redisUrl() });
      const prefix = uniqueName('test');
      const store = new RedisStore({ client, keyPrefix: `${prefix}:` });
      try {
        const [version, missing] = await Promise.all([
          store.append('t', [entry], { expectedVersion: 0 }),
          store.getThread('other'),
        ]);
        expect([version, missing]).toEqual([1, null]);
        await store.close();
        expect(client.isOpen).toBe(true);
        expect(await client.exists(`${prefix}:t:t`)).toBe(1);
      } finally {
        await redisBackend().drop(prefix);
        await client.close();
      }
    });

    it('keeps stores with different prefixes apart, and rejects an empty prefix', async () => {
      const backend = redisBackend();
      const [a, b] = [await backend.create(), await backend.create()];
      await a.append('t', [entry], { expectedVersion: 0 });
      expect(await b.getThread('t')).toBeNull();
      expect(await b.listThreads()).toEqual([]);
      await Promise.all([backend.destroy(a), backend.destroy(b)]);
      expect(() => new RedisStore({ keyPrefix: '' })).toThrow(/keyPrefix is empty/);
    });

    it('refuses calls after close() with a StoreError', async () => {
      const store = new RedisStore({ url: redisUrl(), keyPrefix: `${uniqueName('test')}:` });
      await store.getThread('t');
      await store.close();
      await expect(store.getThread('t')).rejects.toMatchObject({
        code: 'STORE_ERROR',
        message: expect.stringMatching(/closed/),
      });
    });
  },
);
