import type { AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { ConflictError, StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { AppendOptions } from '../../src/stores/types.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const msg = (content: string): AgentInputItem => ({ role: 'user', content });
const texts = (items: readonly ThreadItem[]) =>
  items.map((t) => (t.item as { content: string }).content);

/** A MemoryStore that records appends and conflicts, and can be told to fail. */
class SpyStore extends MemoryStore {
  appends: Array<{ threadId: string; count: number; options: AppendOptions }> = [];
  conflicts = 0;
  failWith: Error | null = null;

  override async append(
    threadId: string,
    items: ThreadItem[],
    options: AppendOptions,
  ): Promise<number> {
    this.appends.push({ threadId, count: items.length, options: { ...options } });
    if (this.failWith) throw this.failWith;
    try {
      return await super.append(threadId, items, options);
    } catch (error) {
      if (error instanceof ConflictError) this.conflicts++;
      throw error;
    }
  }
}

describe('ThreadManager', () => {
  it('creates an empty thread with its id and chat, and caches it', async () => {
    const threads = new ThreadManager();
    const thread = await threads.getThread('c1', 'Writer', 'Coordinator');
    expect(thread).toMatchObject({
      threadId: 'c1__Coordinator__Writer',
      chatId: 'c1',
      items: [],
      savedVersion: 0,
    });
    expect(await threads.getThread('c1', 'Coordinator', 'Writer')).toBe(thread);
    expect(await threads.getThread('c1', 'Writer')).not.toBe(thread);
    expect(await threads.store.getThread(thread.threadId)).toBeNull();
  });

  it('saves pending items with the expected version and nothing when nothing is pending', async () => {
    const store = new SpyStore();
    const threads = new ThreadManager({ store });
    const thread = await threads.getThread('c', 'A');
    thread.addItems([msg('1'), msg('2')]);
    await threads.saveThread(thread);
    expect(store.appends).toEqual([
      { threadId: 'c__A__USER', count: 2, options: { expectedVersion: 0, chatId: 'c' } },
    ]);
    expect(thread.savedVersion).toBe(2);
    expect(thread.pending).toEqual([]);
    await threads.saveThread(thread);
    expect(store.appends).toHaveLength(1);
    await threads.addItemsAndSave(thread, [msg('3')]);
    expect(store.appends[1]).toEqual({
      threadId: 'c__A__USER',
      count: 1,
      options: { expectedVersion: 2, chatId: 'c' },
    });
    expect(texts(await store.readItems('c__A__USER'))).toEqual(['1', '2', '3']);
    expect((await store.getThread('c__A__USER'))!.chatId).toBe('c');
  });

  it('loads saved threads from the store in a new manager, and again after evict', async () => {
    const store = new MemoryStore();
    const first = new ThreadManager({ store });
    const thread = await first.getThread('c', 'A', 'B');
    await first.addItemsAndSave(thread, [msg('hello')], {
      agent: 'B',
      callerAgent: 'A',
      runId: 'r',
      parentRunId: null,
      createdAt: 'now',
    });
    const second = new ThreadManager({ store });
    const loaded = await second.getThread('c', 'B', 'A');
    expect(loaded).not.toBe(thread);
    expect(loaded.fullLog()).toEqual(thread.fullLog());
    expect(loaded.savedVersion).toBe(1);
    first.evict('other');
    expect(await first.getThread('c', 'A', 'B')).toBe(thread);
    first.evict('c');
    const reread = await first.getThread('c', 'A', 'B');
    expect(reread).not.toBe(thread);
    expect(texts(reread.items)).toEqual(['hello']);
  });

  it("brings a cached thread up to date with another writer's items", async () => {
    const store = new MemoryStore();
    const mine = new ThreadManager({ store });
    const theirs = new ThreadManager({ store });
    const thread = await mine.getThread('c', 'A');
    const other = await theirs.getThread('c', 'A');
    await theirs.addItemsAndSave(other, [msg('theirs')]);
    expect(await mine.getThread('c', 'A')).toBe(thread);
    expect(texts(thread.items)).toEqual(['theirs']);
    expect(thread.savedVersion).toBe(1);
  });

  it('loses no item and duplicates none when two managers write one thread concurrently', async () => {
    const store = new SpyStore();
    const one = new ThreadManager({ store });
    const two = new ThreadManager({ store });
    const a = await one.getThread('c', 'A', 'B');
    const b = await two.getThread('c', 'A', 'B');
    a.addItems([msg('a1'), msg('a2')]);
    b.addItems([msg('b1'), msg('b2'), msg('b3')]);
    await Promise.all([one.saveThread(a), two.saveThread(b)]);
    expect(store.conflicts).toBeGreaterThanOrEqual(1);
    const stored = await store.readItems(a.threadId);
    expect(texts(stored).sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'b3']);
    expect(new Set(stored.map((t) => t.id)).size).toBe(5);
    // Each writer's items stay together and in order; the loser caught up, the winner does on its next get.
    expect([
      ['a1', 'a2', 'b1', 'b2', 'b3'],
      ['b1', 'b2', 'b3', 'a1', 'a2'],
    ]).toContainEqual(texts(stored));
    const ids = stored.map((t) => t.id);
    const loser = texts(stored)[0] === 'a1' ? b : a;
    expect(loser.items.map((t) => t.id)).toEqual(ids);
    expect(loser.savedVersion).toBe(5);
    expect((await one.getThread('c', 'A', 'B')).items.map((t) => t.id)).toEqual(ids);
    expect((await two.getThread('c', 'A', 'B')).items.map((t) => t.id)).toEqual(ids);
  });

  it('keeps every item exactly once under many concurrent writers and rounds', async () => {
    const store = new MemoryStore();
    const managers = Array.from({ length: 6 }, () => new ThreadManager({ store }));
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        managers.map(async (manager, m) => {
          const thread = await manager.getThread('c', 'X', 'Y');
          const item = msg(`m${m}-r${round}`);
          await Promise.resolve();
          await manager.addItemsAndSave(thread, [item]);
        }),
      );
    }
    const stored = texts(await store.readItems('c__X__Y'));
    expect(stored).toHaveLength(24);
    expect(new Set(stored).size).toBe(24);
    for (const manager of managers) {
      expect(texts((await manager.getThread('c', 'X', 'Y')).items)).toEqual(stored);
    }
  });

  it('serializes concurrent saves of one thread in one manager', async () => {
    const store = new SpyStore();
    const threads = new ThreadManager({ store });
    const thread = await threads.getThread('c', 'A');
    thread.addItem(msg('1'));
    const first = threads.saveThread(thread);
    thread.addItem(msg('2'));
    const second = threads.saveThread(thread);
    await Promise.all([first, second]);
    expect(texts(await store.readItems('c__A__USER'))).toEqual(['1', '2']);
    expect(store.conflicts).toBe(0);
  });

  it("rejects saveThread with the store's StoreError and keeps the items pending", async () => {
    const store = new SpyStore();
    const threads = new ThreadManager({ store });
    const thread = await threads.getThread('c', 'A');
    thread.addItem(msg('lost?'));
    const failure = new StoreError('disk full');
    store.failWith = failure;
    await expect(threads.saveThread(thread)).rejects.toBe(failure);
    await expect(threads.addItemsAndSave(thread, [msg('more')])).rejects.toBe(failure);
    expect(store.appends).toHaveLength(2);
    expect(texts(thread.pending)).toEqual(['lost?', 'more']);
    store.failWith = null;
    await threads.saveThread(thread);
    expect(texts(await store.readItems('c__A__USER'))).toEqual(['lost?', 'more']);
  });

  it('rejects other store errors too', async () => {
    const store = new SpyStore();
    store.failWith = new TypeError('driver bug');
    const threads = new ThreadManager({ store });
    const thread = await threads.getThread('c', 'A');
    thread.addItem(msg('x'));
    await expect(threads.saveThread(thread)).rejects.toThrow('driver bug');
  });

  it('gives up after maxConflictRetries and rejects with the ConflictError', async () => {
    const store = new SpyStore();
    store.failWith = new ConflictError('c__A__USER', 0, 0);
    const threads = new ThreadManager({ store, maxConflictRetries: 2 });
    const thread = await threads.getThread('c', 'A');
    thread.addItem(msg('x'));
    await expect(threads.saveThread(thread)).rejects.toBeInstanceOf(ConflictError);
    expect(store.appends).toHaveLength(3);
  });

  it('reloads a thread the store has cut back, keeping pending items', async () => {
    const store = new MemoryStore();
    const threads = new ThreadManager({ store });
    const thread = await threads.getThread('c', 'A');
    await threads.addItemsAndSave(thread, [msg('1'), msg('2'), msg('3')]);
    await store.rollback('c__A__USER', 1);
    thread.addItem(msg('new'));
    await threads.saveThread(thread);
    expect(texts(await store.readItems('c__A__USER'))).toEqual(['1', 'new']);
    expect(texts(thread.items)).toEqual(['1', 'new']);
  });
});

describe('ThreadManager cache bound', () => {
  it('drops the least recently used saved threads past cacheSize and reads them again from the store', async () => {
    const store = new MemoryStore();
    const threads = new ThreadManager({ store, cacheSize: 2 });
    const first = await threads.getThread('c', 'A');
    await threads.addItemsAndSave(first, [{ role: 'user', content: 'one' }]);
    await threads.getThread('c', 'B');
    await threads.getThread('c', 'C');
    const again = await threads.getThread('c', 'A');
    expect(again).not.toBe(first);
    expect(again.items.map((entry) => (entry.item as { content: string }).content)).toEqual([
      'one',
    ]);
  });

  it('never drops a thread with unsaved items', async () => {
    const threads = new ThreadManager({ store: new MemoryStore(), cacheSize: 1 });
    const busy = await threads.getThread('c', 'A');
    busy.addItem({ role: 'user', content: 'not saved yet' });
    await threads.getThread('c', 'B');
    await threads.getThread('c', 'C');
    expect(await threads.getThread('c', 'A')).toBe(busy);
    expect(busy.pending).toHaveLength(1);
  });

  it('keeps an unsaved thread through many evictions, and drops it once saved', async () => {
    const store = new MemoryStore();
    const threads = new ThreadManager({ store, cacheSize: 2 });
    const busy = await threads.getThread('c', 'A');
    busy.addItem({ role: 'user', content: 'not saved yet' });
    for (const other of ['B', 'C', 'D', 'E', 'F']) await threads.getThread('c', other);
    // Still the same object, with its unsaved item: evicting it would have lost the item.
    expect(await threads.getThread('c', 'A')).toBe(busy);
    for (const other of ['G', 'H', 'I']) await threads.getThread('c', other);
    await threads.saveThreads([busy]);
    expect(await store.readItems('c__A__USER')).toHaveLength(1);
    // Saved, it is an ordinary cached thread again: the least recently used, it goes.
    for (const other of ['J', 'K', 'L']) await threads.getThread('c', other);
    const again = await threads.getThread('c', 'A');
    expect(again).not.toBe(busy);
    expect(again.items.map((entry) => (entry.item as { content: string }).content)).toEqual([
      'not saved yet',
    ]);
  });

  it('evict(chatId) forgets the threads of that chat, unsaved ones included', async () => {
    const threads = new ThreadManager({ store: new MemoryStore(), cacheSize: 1 });
    const busy = await threads.getThread('c', 'A');
    busy.addItem({ role: 'user', content: 'dropped on purpose' });
    await threads.getThread('d', 'A');
    threads.evict('c');
    expect(await threads.getThread('c', 'A')).not.toBe(busy);
  });
});
