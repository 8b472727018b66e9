import type { AgentInputItem } from '@openai/agents-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { AppendBatchEntry } from '../../src/stores/types.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const msg = (content: string): AgentInputItem => ({ role: 'user', content });
const texts = (items: readonly ThreadItem[]) =>
  items.map((t) => (t.item as { content: string }).content);

/** A memory store with `appendMany` (all or nothing over the reference store), counting calls. */
class BatchingStore extends MemoryStore {
  batches: string[][] = [];
  appends = 0;

  override async append(...args: Parameters<MemoryStore['append']>): Promise<number> {
    this.appends++;
    return super.append(...args);
  }

  async appendMany(batch: readonly AppendBatchEntry[]): Promise<number[]> {
    this.batches.push(batch.map((entry) => entry.threadId));
    for (const { threadId, options } of batch) {
      const version = (await this.getThread(threadId))?.version ?? 0;
      if (version !== options.expectedVersion) {
        const { ConflictError } = await import('../../src/errors.js');
        throw new ConflictError(threadId, options.expectedVersion, version);
      }
    }
    const versions: number[] = [];
    for (const { threadId, items, options } of batch)
      versions.push(await super.append(threadId, items, options));
    return versions;
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ThreadManager.saveThreads', () => {
  it('saves every dirty thread in one appendMany and updates their saved versions', async () => {
    const store = new BatchingStore();
    const threads = new ThreadManager({ store });
    const a = await threads.getThread('c1', 'A');
    const b = await threads.getThread('c1', 'B', 'A');
    const clean = await threads.getThread('c1', 'C', 'A');
    a.addItems([msg('u1'), msg('a1')]);
    b.addItems([msg('b1')]);
    await threads.saveThreads([b, a, clean, a]);
    expect(store.batches).toEqual([[b.threadId, a.threadId]]);
    expect(store.appends).toBe(0); // no single appends: the batch wrote both
    expect([a.savedVersion, b.savedVersion, a.pending, b.pending]).toEqual([2, 1, [], []]);
    expect(texts(await store.readItems(a.threadId))).toEqual(['u1', 'a1']);
    expect(await store.getThread(clean.threadId)).toBeNull();
  });

  it('falls back to one save per thread (with catch-up) when another writer got there first', async () => {
    const store = new BatchingStore();
    const threads = new ThreadManager({ store });
    const a = await threads.getThread('c1', 'A');
    const b = await threads.getThread('c1', 'B', 'A');
    // Another writer appends to A's thread behind the manager's back.
    await store.append(a.threadId, [{ id: 'x', item: msg('theirs') }], { expectedVersion: 0 });
    a.addItems([msg('mine')]);
    b.addItems([msg('b1')]);
    await threads.saveThreads([a, b]);
    expect(store.batches).toHaveLength(1);
    expect(texts(await store.readItems(a.threadId))).toEqual(['theirs', 'mine']);
    expect(texts(await store.readItems(b.threadId))).toEqual(['b1']);
    expect(texts(a.items)).toEqual(['theirs', 'mine']);
  });

  it('saves thread by thread on a store without appendMany, stopping at a failure', async () => {
    const store = new MemoryStore();
    const failure = new StoreError('disk full');
    let calls = 0;
    store.append = async function (this: MemoryStore, ...args) {
      calls++;
      if (args[0].endsWith('__B')) throw failure;
      return MemoryStore.prototype.append.apply(this, args);
    };
    const threads = new ThreadManager({ store });
    const a = await threads.getThread('c1', 'A');
    const b = await threads.getThread('c1', 'B', 'A');
    a.addItems([msg('a1')]);
    b.addItems([msg('b1')]);
    await expect(threads.saveThreads([a, b])).rejects.toBe(failure);
    expect(calls).toBe(2);
    expect(texts(await store.readItems(a.threadId))).toEqual(['a1']);
    expect(b.pending).toHaveLength(1); // kept for a later save
  });

  it('writes a whole agency-sized batch in one SQLite transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'colloquy-save-threads-'));
    dirs.push(dir);
    const store = new SqliteStore({ path: join(dir, 'db.sqlite') });
    const threads = new ThreadManager({ store });
    const a = await threads.getThread('c1', 'A');
    const b = await threads.getThread('c1', 'B', 'A');
    a.addItems([msg('u1'), msg('a1')]);
    b.addItems([msg('b1'), msg('b2')]);
    let appends = 0;
    const append = store.append.bind(store);
    store.append = async (...args) => {
      appends++;
      return append(...args);
    };
    await threads.saveThreads([b, a]);
    expect(appends).toBe(0);
    const reread = new ThreadManager({ store });
    expect(texts((await reread.getThread('c1', 'A')).items)).toEqual(['u1', 'a1']);
    expect(texts((await reread.getThread('c1', 'B', 'A')).items)).toEqual(['b1', 'b2']);
    await store.close();
  });
});
