/**
 * `saveThreads(threads, { lastWriteOf: lease })` on SQLite: a save made in one store write also
 * releases the lease in that write's transaction; a save that takes several writes (a batch that
 * lost a race) or fails leaves the lease held for its holder to release.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { withFence } from '../../src/stores/fence.js';
import { holdLease, type LeaseHandle } from '../../src/stores/lease.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const dir = mkdtempSync(join(tmpdir(), 'colloquy-tm-fold-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
let files = 0;

function stores(): [SqliteStore, SqliteStore] {
  const path = join(dir, `t-${++files}.db`);
  const pair: [SqliteStore, SqliteStore] = [new SqliteStore({ path }), new SqliteStore({ path })];
  open.push(...pair);
  return pair;
}

const user = (content: string) => ({ role: 'user' as const, content });

/** Runs `work` fenced with `lease`, as an agency call runs. */
function fenced<T>(lease: LeaseHandle, work: () => Promise<T>): Promise<T> {
  return withFence({ key: lease.key, owner: lease.owner }, work);
}

describe('ThreadManager.saveThreads with the lease of its last write', () => {
  it('releases the lease in the transaction of a one-write batch', async () => {
    const [store, other] = stores();
    const threads = new ThreadManager({ store });
    const lease = await holdLease(store.leases, 'chat:c1');
    const a = await threads.getThread('c1', 'A');
    const b = await threads.getThread('c1', 'A', 'B');
    a.addItems([user('one')]);
    b.addItems([user('two'), user('three')]);
    await fenced(lease, () => threads.saveThreads([a, b], { lastWriteOf: lease }));
    expect(await other.leases.acquire('chat:c1', 'other', 10_000)).toBe(true);
    expect((await other.readItems(a.threadId)).length).toBe(1);
    expect((await other.readItems(b.threadId)).length).toBe(2);
    await lease.release(); // does nothing: the other owner keeps it
    expect(await store.leases.acquire('chat:c1', 'third', 10_000)).toBe(false);
  });

  it('releases it with a one-thread save', async () => {
    const [store, other] = stores();
    const threads = new ThreadManager({ store });
    const lease = await holdLease(store.leases, 'chat:c2');
    const a = await threads.getThread('c2', 'A');
    a.addItems([user('one')]);
    await fenced(lease, () => threads.saveThreads([a], { lastWriteOf: lease }));
    expect(await other.leases.acquire('chat:c2', 'other', 10_000)).toBe(true);
    expect((await other.readItems(a.threadId)).length).toBe(1);
  });

  it('keeps it held when the batch loses a race and is saved thread by thread', async () => {
    const [store, other] = stores();
    const threads = new ThreadManager({ store });
    const lease = await holdLease(store.leases, 'chat:c3');
    const a = await threads.getThread('c3', 'A');
    const b = await threads.getThread('c3', 'A', 'B');
    // Another writer appends to A's thread first: the batch conflicts and is rolled back.
    await other.append(a.threadId, [{ id: 'x1', item: user('theirs') }], { expectedVersion: 0 });
    a.addItems([user('ours')]);
    b.addItems([user('two')]);
    await fenced(lease, () => threads.saveThreads([a, b], { lastWriteOf: lease }));
    expect((await other.readItems(a.threadId)).map((entry) => entry.id)).toEqual([
      'x1',
      a.items[1]!.id,
    ]);
    expect((await other.readItems(b.threadId)).length).toBe(1);
    // Both per-thread saves passed the fence, and the lease is still ours until released.
    expect(await other.leases.acquire('chat:c3', 'other', 10_000)).toBe(false);
    await lease.release();
    expect(await other.leases.acquire('chat:c3', 'other', 10_000)).toBe(true);
  });

  it('keeps it held when the write fails', async () => {
    const [store, other] = stores();
    const threads = new ThreadManager({ store, maxConflictRetries: 0 });
    const lease = await holdLease(store.leases, 'chat:c4');
    const a = await threads.getThread('c4', 'A');
    await other.append(a.threadId, [{ id: 'x1', item: user('theirs') }], { expectedVersion: 0 });
    a.addItems([user('ours')]);
    await expect(
      fenced(lease, () => threads.saveThreads([a], { lastWriteOf: lease })),
    ).rejects.toThrow(/expected version 0/i);
    expect(await other.leases.acquire('chat:c4', 'other', 10_000)).toBe(false);
    await lease.release();
    expect(await other.leases.acquire('chat:c4', 'other', 10_000)).toBe(true);
  });
});
