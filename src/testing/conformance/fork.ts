/** Conformance: `fork`, `reset` and `deleteThread`. @module */
import { describe, expect, it } from 'vitest';
import { appendAll, expectCode, ids, items, type StoreHandle } from './helpers.js';

/** Copy-free forks, resets with archives, and deletes that keep forks readable. */
export function forkTests(store: StoreHandle): void {
  describe('fork', () => {
    it('inherits exactly the first upTo items and records its parent', async () => {
      await appendAll(store(), 'src', items('a', 5), 'c1');
      await store().setMetadata('src', { step: 'x' });
      const record = await store().fork('src', 'f', { upTo: 3 });
      expect(record).toMatchObject({
        threadId: 'f',
        chatId: 'c1',
        version: 3,
        metadata: { step: 'x' },
        forkedFrom: { threadId: 'src', version: 3 },
      });
      expect(await store().getThread('f')).toMatchObject({
        version: 3,
        forkedFrom: { threadId: 'src', version: 3 },
      });
      expect(ids(await store().readItems('f'))).toEqual(['a-0', 'a-1', 'a-2']);
      expect(ids(await store().readItems('f', { newest: 2 }))).toEqual(['a-1', 'a-2']);
      expect(ids(await store().readItems('f', { from: 1, limit: 1 }))).toEqual(['a-1']);
    });

    it('inherits every item by default, and takes chatId and metadata options', async () => {
      await appendAll(store(), 'src', items('a', 4), 'c1');
      await store().fork('src', 'f', { chatId: 'c2', metadata: { own: true } });
      expect(await store().getThread('f')).toMatchObject({
        version: 4,
        chatId: 'c2',
        metadata: { own: true },
      });
      await store().fork('src', 'g', { chatId: null });
      expect((await store().getThread('g'))?.chatId).toBeNull();
    });

    it('keeps appends after the fork invisible to the other side', async () => {
      await appendAll(store(), 'src', items('a', 3));
      await store().fork('src', 'f', { upTo: 2 });
      expect(await store().append('f', items('f', 2), { expectedVersion: 2 })).toBe(4);
      expect(await store().append('src', items('s', 1), { expectedVersion: 3 })).toBe(4);
      expect(ids(await store().readItems('src'))).toEqual(['a-0', 'a-1', 'a-2', 's-0']);
      expect(ids(await store().readItems('f'))).toEqual(['a-0', 'a-1', 'f-0', 'f-1']);
      expect(ids(await store().readItems('f', { newest: 3 }))).toEqual(['a-1', 'f-0', 'f-1']);
    });

    it('forks a fork', async () => {
      await appendAll(store(), 'a', items('a', 4));
      await store().fork('a', 'b', { upTo: 3 });
      await appendAll(store(), 'b', items('b', 2));
      await store().fork('b', 'c', { upTo: 4 });
      await appendAll(store(), 'c', items('c', 1));
      await appendAll(store(), 'a', items('late', 1));
      expect(ids(await store().readItems('c'))).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'c-0']);
      expect(ids(await store().readItems('c', { from: 2, limit: 2 }))).toEqual(['a-2', 'b-0']);
      expect(ids(await store().readItems('b'))).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1']);
      expect((await store().getThread('c'))?.forkedFrom).toEqual({ threadId: 'b', version: 4 });
    });

    it('forks at 0 into an empty thread', async () => {
      await appendAll(store(), 'src', items('a', 3));
      expect(await store().fork('src', 'f', { upTo: 0 })).toMatchObject({
        version: 0,
        forkedFrom: { threadId: 'src', version: 0 },
      });
      expect(await store().readItems('f')).toEqual([]);
      expect(await store().append('f', items('f', 1), { expectedVersion: 0 })).toBe(1);
      expect(ids(await store().readItems('f'))).toEqual(['f-0']);
    });

    it('rejects upTo out of range, an existing target and an unknown source', async () => {
      await appendAll(store(), 'src', items('a', 3));
      await appendAll(store(), 'taken', items('t', 1));
      await expectCode(store().fork('src', 'f', { upTo: 4 }), 'CONFIG_INVALID');
      await expectCode(store().fork('src', 'f', { upTo: -1 }), 'CONFIG_INVALID');
      await expectCode(store().fork('src', 'taken'), 'CONFIG_INVALID');
      await expectCode(store().fork('src', 'src'), 'CONFIG_INVALID');
      await expectCode(store().fork('missing', 'f'), 'THREAD_NOT_FOUND');
      expect(await store().getThread('f')).toBeNull();
      expect(ids(await store().readItems('taken'))).toEqual(['t-0']);
    });
  });

  describe('rollback', () => {
    it('cuts back and returns an archive thread holding the whole history before the rollback', async () => {
      await appendAll(store(), 't', items('a', 5), 'c1');
      await store().setMetadata('t', { keep: 1 });
      const archive = await store().rollback('t', 2);
      expect(typeof archive).toBe('string');
      expect(archive).not.toBe('t');
      expect(ids(await store().readItems('t'))).toEqual(['a-0', 'a-1']);
      expect(await store().getThread('t')).toMatchObject({
        version: 2,
        chatId: 'c1',
        metadata: { keep: 1 },
      });
      expect(ids(await store().readItems(archive!))).toEqual(ids(items('a', 5)));
      expect(await store().getThread(archive!)).toMatchObject({ version: 5, chatId: 'c1' });
    });

    it('lets appends continue at the new version, invisible to the archive', async () => {
      await appendAll(store(), 't', items('a', 4));
      const archive = (await store().rollback('t', 1))!;
      await expect(
        store().append('t', items('x', 1), { expectedVersion: 4 }),
      ).rejects.toMatchObject({ code: 'THREAD_CONFLICT' });
      expect(await store().append('t', items('b', 2), { expectedVersion: 1 })).toBe(3);
      expect(ids(await store().readItems('t'))).toEqual(['a-0', 'b-0', 'b-1']);
      expect(ids(await store().readItems('t', { newest: 2 }))).toEqual(['b-0', 'b-1']);
      expect(ids(await store().readItems(archive))).toEqual(ids(items('a', 4)));
      const second = (await store().rollback('t', 0))!;
      expect(second).not.toBe(archive);
      expect(await store().readItems('t')).toEqual([]);
      expect(ids(await store().readItems(second))).toEqual(['a-0', 'b-0', 'b-1']);
    });

    it('returns null when nothing is cut, and rejects a bad version or an unknown thread', async () => {
      await appendAll(store(), 't', items('a', 3));
      expect(await store().rollback('t', 3)).toBeNull();
      expect((await store().getThread('t'))?.version).toBe(3);
      await expectCode(store().rollback('t', 4), 'CONFIG_INVALID');
      await expectCode(store().rollback('t', -1), 'CONFIG_INVALID');
      await expectCode(store().rollback('missing', 0), 'THREAD_NOT_FOUND');
    });

    it('rolls back a forked thread, before and after its fork point', async () => {
      await appendAll(store(), 'a', items('a', 4));
      await store().fork('a', 'f', { upTo: 3 });
      await appendAll(store(), 'f', items('f', 2));
      const archive = (await store().rollback('f', 4))!;
      expect(ids(await store().readItems('f'))).toEqual(['a-0', 'a-1', 'a-2', 'f-0']);
      expect(ids(await store().readItems(archive))).toEqual(['a-0', 'a-1', 'a-2', 'f-0', 'f-1']);
      await store().rollback('f', 1);
      expect(ids(await store().readItems('f'))).toEqual(['a-0']);
      await appendAll(store(), 'f', items('g', 1));
      expect(ids(await store().readItems('f'))).toEqual(['a-0', 'g-0']);
      expect(ids(await store().readItems('a'))).toEqual(ids(items('a', 4)));
    });
  });

  describe('deleteThread', () => {
    it('removes the thread; a new thread may reuse the id', async () => {
      await appendAll(store(), 't', items('a', 3), 'c1');
      await store().deleteThread('t');
      expect(await store().getThread('t')).toBeNull();
      expect(await store().readItems('t')).toEqual([]);
      expect(await store().append('t', items('n', 1), { expectedVersion: 0 })).toBe(1);
      expect(ids(await store().readItems('t'))).toEqual(['n-0']);
    });

    it('is a no-op for an unknown thread', async () => {
      await expect(store().deleteThread('missing')).resolves.toBeUndefined();
    });

    it('keeps inherited items readable through forks, forks of forks and archives', async () => {
      await appendAll(store(), 'a', items('a', 5));
      await store().fork('a', 'b', { upTo: 4 });
      await appendAll(store(), 'b', items('b', 1));
      await store().fork('b', 'c', { upTo: 5 });
      const archive = (await store().rollback('a', 1))!;
      await store().deleteThread('a');
      await store().deleteThread('b');
      expect(ids(await store().readItems('c'))).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'b-0']);
      expect(ids(await store().readItems('c', { newest: 2 }))).toEqual(['a-3', 'b-0']);
      expect(ids(await store().readItems(archive))).toEqual(ids(items('a', 5)));
      await store().deleteThread(archive);
      expect(ids(await store().readItems('c'))).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'b-0']);
      await appendAll(store(), 'c', items('c', 1));
      expect((await store().getThread('c'))?.version).toBe(6);
    });
  });
}
