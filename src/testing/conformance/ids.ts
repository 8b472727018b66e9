/** Conformance: ids that are not well-formed Unicode are refused by every method. @module */
import { describe, expect, it } from 'vitest';
import { appendBatch } from '../../stores/appendBatch.js';
import type { Checkpoint, ThreadStore } from '../../stores/types.js';
import { expectCode, item, type StoreHandle } from './helpers.js';

/**
 * Ids no store can keep: lone surrogates (`\udbff-x` and `\udfff-x` would become one id in UTF-8)
 * and U+0000 (which Postgres refuses), as `checkIds` in `stores/ids.ts` defines them.
 */
const BAD_IDS = ['\udbff-x', '\udfff-x', 'a\ud800', '\udc00', 'a\u0000b'];

function checkpoint(fields: Partial<Checkpoint>): Checkpoint {
  return {
    checkpointId: 'k',
    chatId: 'c',
    label: null,
    createdAt: new Date().toISOString(),
    threads: {},
    ...fields,
  };
}

/** Every call that takes a thread, chat or checkpoint id, with `bad` in one id position each. */
function idCalls(store: ThreadStore, bad: string): [string, () => Promise<unknown>][] {
  const one = [item('a', 0)];
  const calls: [string, () => Promise<unknown>][] = [
    ['getThread', () => store.getThread(bad)],
    ['readItems', () => store.readItems(bad)],
    ['append', () => store.append(bad, one, { expectedVersion: 0 })],
    ['append chatId', () => store.append('t', one, { expectedVersion: 0, chatId: bad })],
    ['setMetadata', () => store.setMetadata(bad, { a: 1 })],
    ['setMetadata chatId', () => store.setMetadata('t', {}, bad)],
    ['listThreads chatId', () => store.listThreads({ chatId: bad })],
    ['fork source', () => store.fork(bad, 'f')],
    ['fork target', () => store.fork('ok', bad)],
    ['fork chatId', () => store.fork('ok', 'f', { chatId: bad })],
    ['rollback', () => store.rollback(bad, 0)],
    ['deleteThread', () => store.deleteThread(bad)],
    ['putCheckpoint checkpointId', () => store.putCheckpoint(checkpoint({ checkpointId: bad }))],
    ['putCheckpoint chatId', () => store.putCheckpoint(checkpoint({ chatId: bad }))],
    ['putCheckpoint thread', () => store.putCheckpoint(checkpoint({ threads: { [bad]: 0 } }))],
    ['getCheckpoint', () => store.getCheckpoint(bad)],
    ['listCheckpoints', () => store.listCheckpoints(bad)],
  ];
  const batch = (threadId: string, chatId?: string) =>
    appendBatch(store, [
      { threadId: 'ok2', items: one, options: { expectedVersion: 0 } },
      { threadId, items: one, options: { expectedVersion: 0, ...(chatId ? { chatId } : {}) } },
    ]);
  if (store.appendMany) {
    calls.push(['appendMany', () => batch(bad)], ['appendMany chatId', () => batch('t2', bad)]);
  }
  return calls;
}

/** Ill-formed ids: a 400-class `CONFIG_INVALID` error everywhere, nothing ever written. */
export function idTests(store: StoreHandle): void {
  describe('ill-formed ids', () => {
    it('refuses every ill-formed id in every id position of every method with CONFIG_INVALID', async () => {
      await store().append('ok', [item('a', 0)], { expectedVersion: 0, chatId: 'c' });
      for (const bad of BAD_IDS) {
        for (const [name, call] of idCalls(store(), bad)) {
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(
            (error as { code?: unknown } | undefined)?.code,
            `${name}(${JSON.stringify(bad)})`,
          ).toBe('CONFIG_INVALID');
        }
      }
      // Nothing was written by any refused call: no thread, no checkpoint.
      expect((await store().listThreads()).map((t) => t.threadId)).toEqual(['ok']);
      expect(await store().listCheckpoints('c')).toEqual([]);
      expect(await store().getCheckpoint('k')).toBeNull();
    });

    it('refuses a lone surrogate in a checkpoint thread id as MemoryStore does', async () => {
      const bad = checkpoint({ checkpointId: 'cp', threads: { main: 1, '\udbff': 2 } });
      await expectCode(store().putCheckpoint(bad), 'CONFIG_INVALID');
      expect(await store().getCheckpoint('cp')).toBeNull();
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
