// PostgresLeases.acquireReadingChat against the test Postgres (test/setup/services.ts): the lease
// and the chat's thread versions in one round trip. Each test gets its own schema.
import { describe, expect, it, vi } from 'vitest';
import type { PostgresStore } from '../../src/stores/postgres.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { postgresBackend } from './isolatedStores.js';

const backend = postgresBackend();
const items = (...ids: string[]): ThreadItem[] =>
  ids.map((id) => ({ id, item: { role: 'user', content: id } }));

async function withStore(work: (store: PostgresStore) => Promise<void>): Promise<void> {
  const store = (await backend.create()) as PostgresStore;
  try {
    await work(store);
  } finally {
    await backend.destroy(store);
  }
}

describe.skipIf(Boolean(backend.skip))('PostgresLeases.acquireReadingChat', () => {
  it("takes a free lease and returns every thread version of the chat, and only that chat's", async () => {
    await withStore(async (store) => {
      await store.append('c::a', items('a1', 'a2'), { expectedVersion: 0, chatId: 'c' });
      await store.append('c::b', items('b1'), { expectedVersion: 0, chatId: 'c' });
      await store.append('d::x', items('x1'), { expectedVersion: 0, chatId: 'd' });
      expect(await store.leases.acquireReadingChat('k', 'me', 5_000, 'c')).toEqual({
        'c::a': 2,
        'c::b': 1,
      });
      // Held: another owner is refused, the same owner takes it again.
      expect(await store.leases.acquire('k', 'other', 5_000)).toBe(false);
      expect(await store.leases.acquireReadingChat('k', 'me', 5_000, 'none')).toEqual({});
      await store.leases.release('k', 'me');
      expect(await store.leases.acquire('k', 'other', 5_000)).toBe(true);
    });
  });

  it('resolves null and reads nothing that counts while another owner holds the lease', async () => {
    await withStore(async (store) => {
      expect(await store.leases.acquire('k', 'other', 5_000)).toBe(true);
      expect(await store.leases.acquireReadingChat('k', 'me', 5_000, 'c')).toBeNull();
      // An expired lease is taken over.
      expect(await store.leases.acquire('short', 'other', 30)).toBe(true);
      const takeOver = async () =>
        expect(
          await store.leases.acquireReadingChat('short', 'me', 5_000, 'c'),
          'the expired lease is taken over',
        ).toEqual({});
      await vi.waitFor(takeOver, { timeout: 5_000, interval: 10 });
      expect(await store.leases.renew('short', 'me', 5_000)).toBe(true);
    });
  });

  it('quotes keys, owners and chat ids (quotes, backslashes, $2 and SQL in them change nothing)', async () => {
    await withStore(async (store) => {
      const chat = "it's \\ $2 '); DROP TABLE colloquy_leases; --";
      await store.append(`${chat}::t`, items('u1'), { expectedVersion: 0, chatId: chat });
      const key = "queue:chat:o'brien:$1\\$3";
      const owner = "job:$2:'x'\\";
      expect(await store.leases.acquireReadingChat(key, owner, 5_000, chat)).toEqual({
        [`${chat}::t`]: 1,
      });
      expect(await store.leases.acquire(key, 'other', 5_000)).toBe(false);
      expect(await store.leases.renew(key, owner, 5_000)).toBe(true);
      await store.leases.release(key, owner);
      expect(await store.leases.acquire(key, 'other', 5_000)).toBe(true);
    });
  });

  it('reads under the lease: a waiter that gets it after the holder let go sees every write of the holder', async () => {
    await withStore(async (store) => {
      await store.append('c::a', items('a1'), { expectedVersion: 0, chatId: 'c' });
      expect(await store.leases.acquire('k', 'first', 5_000)).toBe(true);
      // The first holder writes, then releases while the second is already asking.
      let refused = 0;
      const asking = (async () => {
        for (;;) {
          const versions = await store.leases.acquireReadingChat('k', 'second', 5_000, 'c');
          if (versions) return versions;
          refused += 1;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })();
      const waiting = () => expect(refused, 'the second was refused once').toBeGreaterThan(0);
      await vi.waitFor(waiting, { timeout: 5_000, interval: 5 });
      await store.append('c::a', items('a2'), { expectedVersion: 1, chatId: 'c' });
      await store.append('c::new', items('n1'), { expectedVersion: 0, chatId: 'c' });
      await store.leases.release('k', 'first');
      expect(await asking).toEqual({ 'c::a': 2, 'c::new': 1 });
    });
  });
});
