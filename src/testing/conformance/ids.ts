/** Conformance: ids that are not well-formed Unicode are refused by every method. @module */
import { describe, expect, it } from 'vitest';
import { expectCode, item, type StoreHandle } from './helpers.js';

/** Lone surrogates (ids that differ only by one) and a NUL: no store can keep them apart or at all. */
const ODD = ['\udbff-x', '\udfff-x', 'a\ud800', '\udc00', 'a\u0000b'];

/** Ill-formed ids: a 400-class `CONFIG_INVALID` error everywhere, no thread ever created. */
export function idTests(store: StoreHandle): void {
  describe('ill-formed ids', () => {
    it('refuses lone surrogates in thread ids on every thread method', async () => {
      for (const id of ODD) {
        await expectCode(
          store().append(id, [item('a', 0)], { expectedVersion: 0 }),
          'CONFIG_INVALID',
        );
        await expectCode(store().getThread(id), 'CONFIG_INVALID');
        await expectCode(store().readItems(id), 'CONFIG_INVALID');
        await expectCode(store().setMetadata(id, { a: 1 }), 'CONFIG_INVALID');
        await expectCode(store().rollback(id, 0), 'CONFIG_INVALID');
        await expectCode(store().deleteThread(id), 'CONFIG_INVALID');
      }
      expect(await store().listThreads()).toEqual([]);
    });

    it('refuses lone surrogates in chat ids, fork targets and checkpoints', async () => {
      await store().append('ok', [item('a', 0)], { expectedVersion: 0 });
      await expectCode(
        store().append('t', [item('a', 0)], { expectedVersion: 0, chatId: '\ud800' }),
        'CONFIG_INVALID',
      );
      await expectCode(store().setMetadata('t', {}, '\udfff'), 'CONFIG_INVALID');
      await expectCode(store().listThreads({ chatId: '\udfff' }), 'CONFIG_INVALID');
      await expectCode(store().fork('ok', '\udbff-x'), 'CONFIG_INVALID');
      await expectCode(store().fork('ok', 'f', { chatId: '\udbff' }), 'CONFIG_INVALID');
      const checkpoint = {
        checkpointId: '\udbff',
        chatId: 'c',
        label: null,
        createdAt: new Date().toISOString(),
        threads: {},
      };
      await expectCode(store().putCheckpoint(checkpoint), 'CONFIG_INVALID');
      await expectCode(
        store().putCheckpoint({ ...checkpoint, checkpointId: 'k', chatId: '\udfff' }),
        'CONFIG_INVALID',
      );
      await expectCode(store().getCheckpoint('\udbff'), 'CONFIG_INVALID');
      await expectCode(store().listCheckpoints('\udfff'), 'CONFIG_INVALID');
      expect((await store().listThreads()).map((t) => t.threadId)).toEqual(['ok']);
    });

    it('keeps well-formed ids that differ only in astral or replacement characters apart', async () => {
      const distinct = ['\ud83d\ude00-x', '\ufffd-x', '\udbff\udfff-x', 'x'];
      for (const [n, id] of distinct.entries())
        await store().append(id, [item(`n${n}`, 0)], { expectedVersion: 0 });
      for (const [n, id] of distinct.entries()) {
        expect((await store().getThread(id))?.threadId).toBe(id);
        expect((await store().readItems(id)).map((i) => i.id)).toEqual([`n${n}-0`]);
      }
      expect((await store().listThreads()).map((t) => t.threadId).sort()).toEqual(
        [...distinct].sort(),
      );
    });
  });
}
