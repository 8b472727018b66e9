// LeaseHandle.releaseWithNextWrite: on leases that cannot fold a release into a write it changes
// nothing; on SQLite a committed fenced write releases the lease and the handle stops renewing it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withFence } from '../../src/stores/fence.js';
import { holdLease, isFoldingLeases, MemoryLeases } from '../../src/stores/lease.js';
import { SqliteStore } from '../../src/stores/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'colloquy-lease-next-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LeaseHandle.releaseWithNextWrite', () => {
  it('does nothing on leases that cannot release with a write', async () => {
    const leases = new MemoryLeases();
    expect(isFoldingLeases(leases)).toBe(false);
    const lease = await holdLease(leases, 'k');
    const settle = lease.releaseWithNextWrite!();
    expect(settle()).toBe(false);
    expect(await leases.acquire('k', 'other', 1000)).toBe(false);
    await lease.release();
    expect(await leases.acquire('k', 'other', 1000)).toBe(true);
  });

  it('on SQLite: a committed fenced write releases it, and release() then does nothing', async () => {
    const store = new SqliteStore({ path: join(dir, 'a.db') });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      expect(isFoldingLeases(store.leases)).toBe(true);
      const lease = await holdLease(store.leases, 'chat:c1', { ttlMs: 60 });
      const release = vi.spyOn(store.leases, 'release');
      const renew = vi.spyOn(store.leases, 'renew');
      const settle = lease.releaseWithNextWrite!();
      await withFence({ key: lease.key, owner: lease.owner }, () =>
        store.append('t', [{ id: 'i1', item: { role: 'user', content: 'hi' } }], {
          expectedVersion: 0,
        }),
      );
      expect(settle()).toBe(true);
      expect(await store.leases.acquire('chat:c1', 'other', 60_000)).toBe(true);
      // No renewal after the write released it (every ttl/3 = 20 ms while held).
      vi.advanceTimersByTime(1000);
      expect(renew).not.toHaveBeenCalled();
      expect(lease.lost).toBe(false);
      await lease.release();
      expect(release).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });

  it('on SQLite: a write that is not fenced with the lease leaves it armed and held', async () => {
    const store = new SqliteStore({ path: join(dir, 'b.db') });
    try {
      const lease = await holdLease(store.leases, 'chat:c2');
      const settle = lease.releaseWithNextWrite!();
      await store.append('t', [{ id: 'i1', item: { role: 'user', content: 'hi' } }], {
        expectedVersion: 0,
      });
      expect(settle()).toBe(false);
      expect(await store.leases.acquire('chat:c2', 'other', 60_000)).toBe(false);
      await lease.release();
      expect(await store.leases.acquire('chat:c2', 'other', 60_000)).toBe(true);
    } finally {
      await store.close();
    }
  });
  it('on SQLite: an armed lease another owner took meanwhile fails the write, writes nothing and leaves their lease', async () => {
    const store = new SqliteStore({ path: join(dir, 'c.db') });
    try {
      const lease = await holdLease(store.leases, 'chat:c3');
      // Another process took the lease after it expired (as its acquire does: same row, new owner).
      store.connection
        .prepare(`UPDATE leases SET owner = 'other' WHERE lease_key = 'chat:c3'`)
        .run();
      const settle = lease.releaseWithNextWrite!();
      const write = withFence({ key: lease.key, owner: lease.owner }, () =>
        store.append('t', [{ id: 'i1', item: { role: 'user', content: 'hi' } }], {
          expectedVersion: 0,
        }),
      );
      await expect(write).rejects.toThrow(/no longer held/);
      expect(settle()).toBe(false);
      expect(await store.getThread('t')).toBeNull();
      const holder = store.connection
        .prepare(`SELECT owner FROM leases WHERE lease_key = 'chat:c3'`)
        .get() as { owner: string } | undefined;
      expect(holder?.owner).toBe('other');
      await lease.release();
    } finally {
      await store.close();
    }
  });

  it('on SQLite: an armed write that fails keeps the lease held (the release rolls back with it)', async () => {
    const store = new SqliteStore({ path: join(dir, 'd.db') });
    try {
      const lease = await holdLease(store.leases, 'chat:c4');
      const settle = lease.releaseWithNextWrite!();
      const stale = withFence({ key: lease.key, owner: lease.owner }, () =>
        store.append('t', [{ id: 'i1', item: { role: 'user', content: 'hi' } }], {
          expectedVersion: 3,
        }),
      );
      await expect(stale).rejects.toThrow(/version/i);
      expect(settle()).toBe(false);
      expect(await store.leases.acquire('chat:c4', 'other', 60_000)).toBe(false);
      await lease.release();
      expect(await store.leases.acquire('chat:c4', 'other', 60_000)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
