import { describe, expect, it } from 'vitest';
import { restoreChat, snapshotChat } from '../../src/queue/chatJournal.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadItem } from '../../src/stores/item.js';

const items = (...ids: string[]): ThreadItem[] =>
  ids.map((id) => ({ id, item: { role: 'user', content: id } }));

describe('chat journal: snapshot and restore', () => {
  it('cuts a chat back to its snapshot: longer threads reset, new threads deleted, archives gone', async () => {
    const store = new MemoryStore();
    await store.append('c::a', items('a1', 'a2'), { expectedVersion: 0, chatId: 'c' });
    await store.append('c::b', items('b1'), { expectedVersion: 0, chatId: 'c' });
    await store.append('other::x', items('x1'), { expectedVersion: 0, chatId: 'other' });
    const snapshot = await snapshotChat(store, 'c');
    expect(snapshot).toEqual({ 'c::a': 2, 'c::b': 1 });

    // A dead attempt's half-written work.
    await store.append('c::a', items('a3', 'a4'), { expectedVersion: 2, chatId: 'c' });
    await store.append('c::new', items('n1'), { expectedVersion: 0, chatId: 'c' });
    expect(await restoreChat(store, 'c', snapshot)).toBe(3);

    expect((await store.readItems('c::a')).map((i) => i.id)).toEqual(['a1', 'a2']);
    expect((await store.readItems('c::b')).map((i) => i.id)).toEqual(['b1']);
    expect(await store.getThread('c::new')).toBeNull();
    expect((await store.listThreads({ chatId: 'c' })).map((r) => r.threadId)).toEqual([
      'c::a',
      'c::b',
    ]);
    expect((await store.readItems('other::x')).map((i) => i.id)).toEqual(['x1']);
    // Restoring again changes nothing.
    expect(await restoreChat(store, 'c', snapshot)).toBe(0);
  });

  it('an empty snapshot removes every thread of the chat', async () => {
    const store = new MemoryStore();
    const snapshot = await snapshotChat(store, 'fresh');
    expect(snapshot).toEqual({});
    await store.append('fresh::a', items('u1', 'r1'), { expectedVersion: 0, chatId: 'fresh' });
    expect(await restoreChat(store, 'fresh', snapshot)).toBe(2);
    expect(await store.listThreads({ chatId: 'fresh' })).toEqual([]);
  });
});
