import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/errors.js';
import { appendBatch } from '../../src/stores/appendBatch.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';

const items = (prefix: string, count: number, from = 0): ThreadItem[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${from + i}`,
    item: { role: 'user' as const, content: `${prefix} ${from + i}` },
  }));

/** Records the store methods called. */
function spy(store: ThreadStore): string[] {
  const calls: string[] = [];
  const target = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['append', 'appendMany', 'setMetadata']) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    target[method] = (...args: unknown[]) => {
      calls.push(method);
      return original.apply(store, args);
    };
  }
  return calls;
}

describe('appendBatch', () => {
  it('uses appendMany for one entry that carries metadata (items and metadata in one transaction)', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    try {
      const calls = spy(store);
      await appendBatch(store, [
        {
          threadId: 't',
          items: items('a', 1),
          options: { expectedVersion: 0 },
          metadata: { m: 1 },
        },
      ]);
      // Without metadata a single entry is a plain append.
      await appendBatch(store, [
        { threadId: 't', items: items('a', 1, 1), options: { expectedVersion: 1 } },
      ]);
      expect(calls).toEqual(['appendMany', 'append']);
      expect(await store.getThread('t')).toMatchObject({ version: 2, metadata: { m: 1 } });
    } finally {
      await store.close();
    }
  });

  it('without appendMany: append then setMetadata per entry; a metadata-only entry is setMetadata alone', async () => {
    const store = new MemoryStore();
    const calls = spy(store);
    const versions = await appendBatch(store, [
      { threadId: 's', items: items('s', 2), options: { expectedVersion: 0, chatId: 'c' } },
      {
        threadId: 'm',
        items: [],
        options: { expectedVersion: 0, chatId: 'c' },
        metadata: { head: 1 },
      },
    ]);
    expect(versions).toEqual([2, 0]);
    expect(calls).toEqual(['append', 'setMetadata']);
    expect(await store.getThread('m')).toMatchObject({ chatId: 'c', metadata: { head: 1 } });
    // With items, the append's version check still applies (and the metadata is not written).
    await expect(
      appendBatch(store, [
        {
          threadId: 's',
          items: items('s', 1, 2),
          options: { expectedVersion: 1 },
          metadata: { x: 1 },
        },
      ]),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await store.getThread('s'))?.metadata).toEqual({});
  });
});
