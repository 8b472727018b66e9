/** Conformance: `appendMany` (optional), through `appendBatch`, which falls back to `append`. @module */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../errors.js';
import { appendBatch } from '../../stores/appendBatch.js';
import { ids, items, type StoreHandle } from './helpers.js';

/** `appendMany`: several threads in one call, new and existing, all or nothing on conflicts. */
export function appendManyTests(store: StoreHandle): void {
  describe('appendMany', () => {
    it('appends to new and existing threads and returns their versions in order', async () => {
      await store().append('t1', items('a', 2), { expectedVersion: 0, chatId: 'c1' });
      const versions = await appendBatch(store(), [
        { threadId: 't1', items: items('a', 1, 2), options: { expectedVersion: 2 } },
        { threadId: 't2', items: items('b', 3), options: { expectedVersion: 0, chatId: 'c1' } },
      ]);
      expect(versions).toEqual([3, 3]);
      expect(ids(await store().readItems('t1'))).toEqual(['a-0', 'a-1', 'a-2']);
      expect(ids(await store().readItems('t2'))).toEqual(['b-0', 'b-1', 'b-2']);
      expect((await store().getThread('t2'))?.chatId).toBe('c1');
      expect((await store().listThreads({ chatId: 'c1' })).map((t) => t.threadId)).toEqual([
        't1',
        't2',
      ]);
    });

    it('throws ConflictError naming the stale thread; with appendMany nothing is written', async () => {
      await store().append('t1', items('a', 2), { expectedVersion: 0 });
      const error = await appendBatch(store(), [
        { threadId: 't0', items: items('z', 1), options: { expectedVersion: 0 } },
        { threadId: 't1', items: items('b', 1), options: { expectedVersion: 1 } },
      ]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ threadId: 't1', expectedVersion: 1, actualVersion: 2 });
      expect(ids(await store().readItems('t1'))).toEqual(['a-0', 'a-1']);
      // All or nothing where the store batches; one append after another where it does not.
      expect(await store().getThread('t0')).toEqual(
        store().appendMany ? null : expect.objectContaining({ version: 1 }),
      );
    });

    it('replaces the metadata of entries that carry some, after their items', async () => {
      await store().append('t1', items('a', 1), { expectedVersion: 0, chatId: 'c1' });
      const versions = await appendBatch(store(), [
        { threadId: 't1', items: items('a', 1, 1), options: { expectedVersion: 1 } },
        {
          threadId: 't2',
          items: [],
          options: { expectedVersion: 0, chatId: 'c1' },
          metadata: { head: 1 },
        },
      ]);
      expect(versions).toEqual([2, 0]);
      expect(await store().getThread('t2')).toMatchObject({
        chatId: 'c1',
        version: 0,
        metadata: { head: 1 },
      });
      expect((await store().getThread('t1'))?.metadata).toEqual({});
      // A single entry with metadata: its items and its metadata together.
      await appendBatch(store(), [
        {
          threadId: 't1',
          items: items('a', 1, 2),
          options: { expectedVersion: 2 },
          metadata: { head: 3 },
        },
      ]);
      expect(await store().getThread('t1')).toMatchObject({ version: 3, metadata: { head: 3 } });
    });

    it('leaves the metadata as it was when the batch conflicts and the store batches', async () => {
      await store().setMetadata('t1', { head: 'old' });
      await store().append('t1', items('a', 2), { expectedVersion: 0 });
      const error = await appendBatch(store(), [
        { threadId: 't0', items: items('z', 1), options: { expectedVersion: 0 } },
        {
          threadId: 't1',
          items: items('b', 1),
          options: { expectedVersion: 1 },
          metadata: { head: 'new' },
        },
      ]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((await store().getThread('t1'))?.metadata).toEqual({ head: 'old' });
      expect(ids(await store().readItems('t1'))).toEqual(['a-0', 'a-1']);
    });

    it('refuses a batch that names one thread twice, before writing anything', async () => {
      await expect(
        appendBatch(store(), [
          { threadId: 't1', items: items('a', 1), options: { expectedVersion: 0 } },
          { threadId: 't1', items: items('a', 1, 1), options: { expectedVersion: 1 } },
        ]),
      ).rejects.toThrow(/appears twice/);
      expect(await store().getThread('t1')).toBeNull();
    });
  });
}
