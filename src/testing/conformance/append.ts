/** Conformance: `append`, `getThread` and `setMetadata`. @module */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../errors.js';
import type { ThreadItem } from '../../stores/item.js';
import { ids, item, items, type StoreHandle } from './helpers.js';

/** `append`: creation, versions, optimistic concurrency, exact JSON round-trip. */
export function appendTests(store: StoreHandle): void {
  describe('append', () => {
    it('creates the thread on first append and returns the new version', async () => {
      expect(await store().append('t1', items('a', 2), { expectedVersion: 0, chatId: 'c1' })).toBe(
        2,
      );
      expect(await store().append('t1', items('a', 3, 2), { expectedVersion: 2 })).toBe(5);
      expect(ids(await store().readItems('t1'))).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4']);
      const record = await store().getThread('t1');
      expect(record).toMatchObject({
        threadId: 't1',
        chatId: 'c1',
        version: 5,
        metadata: {},
        forkedFrom: null,
      });
    });

    it('files a thread without chatId under chat null, and ignores chatId once the thread exists', async () => {
      await store().append('t1', items('a', 1), { expectedVersion: 0 });
      await store().append('t1', items('a', 1, 1), { expectedVersion: 1, chatId: 'other' });
      expect((await store().getThread('t1'))?.chatId).toBeNull();
    });

    it('throws ConflictError on a stale version and writes nothing', async () => {
      await store().append('t1', items('a', 2), { expectedVersion: 0 });
      const error = await store()
        .append('t1', [item('b', 0), item('b', 1)], { expectedVersion: 1 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({
        code: 'THREAD_CONFLICT',
        threadId: 't1',
        expectedVersion: 1,
        actualVersion: 2,
      });
      expect(ids(await store().readItems('t1'))).toEqual(['a-0', 'a-1']);
      expect((await store().getThread('t1'))?.version).toBe(2);
    });

    it('throws ConflictError for a version ahead of the thread, and for a new thread at expectedVersion > 0', async () => {
      await expect(
        store().append('new', items('a', 1), { expectedVersion: 3 }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(await store().getThread('new')).toBeNull();
      await store().append('t1', items('a', 1), { expectedVersion: 0 });
      await expect(
        store().append('t1', items('a', 1, 1), { expectedVersion: 5 }),
      ).rejects.toBeInstanceOf(ConflictError);
    });

    it('round-trips items as exact JSON: unicode, nested objects, key order, meta', async () => {
      const rich: ThreadItem[] = [
        {
          id: 'ü-1',
          item: {
            role: 'user',
            content: [
              { type: 'input_text', text: 'héllo 👋 世界 \u0000 "quotes" \\ \n newline \u2028' },
            ],
            providerData: { z: 1, a: { deep: [1, 2.5, -3e-7, null, true, { k: ['x'] }] }, m: '' },
          },
          meta: {
            agent: 'planner',
            callerAgent: null,
            runId: 'r1',
            parentRunId: null,
            createdAt: '2025-01-02T03:04:05.678Z',
          },
        },
        {
          id: 'plain',
          item: {
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: '' }],
          },
        },
      ];
      await store().append('t1', rich, { expectedVersion: 0 });
      const back = await store().readItems('t1');
      expect(back).toStrictEqual(rich);
      expect(JSON.stringify(back)).toBe(JSON.stringify(rich));
    });

    it('keeps its own copies: mutating appended or returned items changes nothing stored', async () => {
      const list = items('a', 1);
      await store().append('t1', list, { expectedVersion: 0 });
      (list[0]!.item as { content: string }).content = 'mutated input';
      const read = await store().readItems('t1');
      (read[0]!.item as { content: string }).content = 'mutated output';
      expect(await store().readItems('t1')).toEqual([item('a', 0)]);
    });

    it('accepts an empty append as a version check', async () => {
      await store().append('t1', items('a', 2), { expectedVersion: 0 });
      expect(await store().append('t1', [], { expectedVersion: 2 })).toBe(2);
      await expect(store().append('t1', [], { expectedVersion: 1 })).rejects.toBeInstanceOf(
        ConflictError,
      );
    });

    it('lets 50 concurrent writers each append one item exactly once (read, append, retry on conflict)', async () => {
      const writer = async (n: number): Promise<void> => {
        for (let attempt = 0; ; attempt++) {
          const version = (await store().getThread('hot'))?.version ?? 0;
          try {
            await store().append('hot', [item('w', n)], { expectedVersion: version });
            return;
          } catch (e) {
            if (!(e instanceof ConflictError) || attempt > 1000) throw e;
          }
        }
      };
      await Promise.all(Array.from({ length: 50 }, (_, n) => writer(n)));
      const read = await store().readItems('hot');
      expect(read).toHaveLength(50);
      expect(new Set(ids(read)).size).toBe(50);
      expect(ids(read).sort()).toEqual(ids(items('w', 50)).sort());
      expect((await store().getThread('hot'))?.version).toBe(50);
    });
  });

  describe('getThread', () => {
    it('returns null for an unknown thread, and reads it as []', async () => {
      expect(await store().getThread('nope')).toBeNull();
      expect(await store().readItems('nope')).toEqual([]);
    });

    it('reports ISO timestamps, with updatedAt moving on append', async () => {
      await store().append('t1', items('a', 1), { expectedVersion: 0 });
      const first = (await store().getThread('t1'))!;
      expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
      await new Promise((r) => setTimeout(r, 5));
      await store().append('t1', items('a', 1, 1), { expectedVersion: 1 });
      const second = (await store().getThread('t1'))!;
      expect(second.createdAt).toBe(first.createdAt);
      expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    });
  });

  describe('setMetadata', () => {
    it('replaces the metadata of an existing thread without touching its items', async () => {
      await store().append('t1', items('a', 2), { expectedVersion: 0, chatId: 'c1' });
      await store().setMetadata('t1', { step: 1, nested: { a: [1, 'ü'] } });
      await store().setMetadata('t1', { step: 2 });
      const record = await store().getThread('t1');
      expect(record).toMatchObject({ metadata: { step: 2 }, version: 2, chatId: 'c1' });
      expect(record?.metadata).not.toHaveProperty('nested');
    });

    it('creates an empty thread when needed, filed under the given chat', async () => {
      await store().setMetadata('t2', { k: 'v' }, 'c9');
      expect(await store().getThread('t2')).toMatchObject({
        version: 0,
        chatId: 'c9',
        metadata: { k: 'v' },
      });
      expect(await store().append('t2', items('a', 1), { expectedVersion: 0 })).toBe(1);
    });

    it('keeps its own copy of the metadata object', async () => {
      const metadata = { list: [1] };
      await store().setMetadata('t1', metadata);
      metadata.list.push(2);
      expect((await store().getThread('t1'))?.metadata).toEqual({ list: [1] });
    });
  });
}
