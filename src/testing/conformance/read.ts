/** Conformance: `readItems` and `listThreads`. @module */
import { beforeEach, describe, expect, it } from 'vitest';
import { appendAll, expectCode, ids, items, type StoreHandle } from './helpers.js';

/** `readItems` ranges and `listThreads` filtering and order. */
export function readTests(store: StoreHandle): void {
  describe('readItems', () => {
    beforeEach(async () => {
      await store().append('t1', items('a', 10), { expectedVersion: 0 });
    });
    const read = async (
      range: Parameters<ReturnType<StoreHandle>['readItems']>[1],
    ): Promise<string[]> => ids(await store().readItems('t1', range));

    it('reads every item in order by default', async () => {
      expect(await read(undefined)).toEqual(ids(items('a', 10)));
      expect(await read({})).toEqual(ids(items('a', 10)));
    });

    it('honours from and limit', async () => {
      expect(await read({ from: 7 })).toEqual(['a-7', 'a-8', 'a-9']);
      expect(await read({ limit: 2 })).toEqual(['a-0', 'a-1']);
      expect(await read({ from: 3, limit: 2 })).toEqual(['a-3', 'a-4']);
      expect(await read({ from: 8, limit: 50 })).toEqual(['a-8', 'a-9']);
      expect(await read({ from: 10 })).toEqual([]);
      expect(await read({ from: 99 })).toEqual([]);
      expect(await read({ limit: 0 })).toEqual([]);
    });

    it('returns the newest items in order, ignoring from/limit', async () => {
      expect(await read({ newest: 3 })).toEqual(['a-7', 'a-8', 'a-9']);
      expect(await read({ newest: 3, from: 0, limit: 1 })).toEqual(['a-7', 'a-8', 'a-9']);
      expect(await read({ newest: 50 })).toEqual(ids(items('a', 10)));
      expect(await read({ newest: 0 })).toEqual([]);
    });

    it('rejects negative or fractional ranges with CONFIG_INVALID', async () => {
      await expectCode(store().readItems('t1', { from: -1 }), 'CONFIG_INVALID');
      await expectCode(store().readItems('t1', { limit: -2 }), 'CONFIG_INVALID');
      await expectCode(store().readItems('t1', { newest: 1.5 }), 'CONFIG_INVALID');
    });
  });

  describe('listThreads', () => {
    it("lists a chat's threads ordered by threadId, and every thread without a filter", async () => {
      await appendAll(store(), 'b', items('x', 1), 'c1');
      await appendAll(store(), 'a', items('x', 2), 'c1');
      await appendAll(store(), 'c', items('x', 1), 'c2');
      await appendAll(store(), 'd', items('x', 1));
      await store().setMetadata('aa', { m: 1 }, 'c1');
      const c1 = await store().listThreads({ chatId: 'c1' });
      expect(c1.map((t) => t.threadId)).toEqual(['a', 'aa', 'b']);
      expect(c1.map((t) => t.version)).toEqual([2, 0, 1]);
      expect(c1[1]?.metadata).toEqual({ m: 1 });
      expect((await store().listThreads()).map((t) => t.threadId)).toEqual([
        'a',
        'aa',
        'b',
        'c',
        'd',
      ]);
      expect((await store().listThreads({})).length).toBe(5);
      expect(await store().listThreads({ chatId: 'none' })).toEqual([]);
    });

    it('omits deleted threads and includes forks filed under the chat', async () => {
      await appendAll(store(), 'a', items('x', 2), 'c1');
      await appendAll(store(), 'b', items('x', 1), 'c1');
      await store().fork('a', 'a2');
      await store().fork('a', 'z', { chatId: 'c2' });
      await store().deleteThread('b');
      expect((await store().listThreads({ chatId: 'c1' })).map((t) => t.threadId)).toEqual([
        'a',
        'a2',
      ]);
      expect((await store().listThreads({ chatId: 'c2' })).map((t) => t.threadId)).toEqual(['z']);
    });
  });
}
