import { describe, expect, it, vi } from 'vitest';
import { holdLease, keepLease, leasesInProcess, MemoryLeases } from '../../src/stores/lease.js';
import type { Leases } from '../../src/stores/lease.js';

describe('holdLease', () => {
  it('refuses a ttl too short to renew', async () => {
    await expect(holdLease(new MemoryLeases(), 'k', { ttlMs: 5 })).rejects.toThrow(/ttlMs 5/);
  });

  it('marks the handle lost when a renewal finds the lease taken', async () => {
    const leases = new MemoryLeases();
    const held = await holdLease(leases, 'k', { ttlMs: 60 });
    // Simulate a pause longer than the ttl: someone else takes the lease after it expired.
    await leases.release('k', held.owner);
    await leases.acquire('k', 'other', 10_000);
    await vi.waitFor(() => expect(held.lost).toBe(true));
    await held.release();
    expect(await leases.acquire('k', 'third', 1_000)).toBe(false);
  });

  it('marks the handle lost when renewal fails', async () => {
    let fail = false;
    const inner = new MemoryLeases();
    const flaky: Leases = {
      acquire: (k, o, t) => inner.acquire(k, o, t),
      renew: async (k, o, t) => {
        if (fail) throw new Error('connection reset');
        return inner.renew(k, o, t);
      },
      release: (k, o) => inner.release(k, o),
    };
    const held = await holdLease(flaky, 'k', { ttlMs: 60 });
    fail = true;
    await vi.waitFor(() => expect(held.lost).toBe(true));
    await held.release();
  });

  it('stops waiting when the signal aborts', async () => {
    const leases = new MemoryLeases();
    await leases.acquire('k', 'holder', 10_000);
    const controller = new AbortController();
    const waiting = holdLease(leases, 'k', { waitMs: 10_000, signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
  });
});

describe('keepLease', () => {
  it('renews a lease acquired elsewhere until released, then lets it go', async () => {
    vi.useFakeTimers(); // the renewal timer and the lease's clock (Date.now)
    try {
      const leases = new MemoryLeases();
      expect(await leases.acquire('k', 'me', 60)).toBe(true);
      const held = keepLease(leases, 'k', 'me', 60);
      // Past the ttl: without renewals another owner would get it.
      await vi.advanceTimersByTimeAsync(120);
      expect(await leases.acquire('k', 'other', 1_000)).toBe(false);
      expect(held).toMatchObject({ key: 'k', owner: 'me', lost: false });
      await held.release();
      await held.release();
      expect(await leases.acquire('k', 'other', 1_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('leasesInProcess', () => {
  it('shares one lease table per scope', async () => {
    expect(leasesInProcess('/a')).toBe(leasesInProcess('/a'));
    expect(leasesInProcess('/a')).not.toBe(leasesInProcess('/b'));
    expect(await leasesInProcess('/scope').acquire('k', 'x', 1000)).toBe(true);
    expect(await leasesInProcess('/scope').acquire('k', 'y', 1000)).toBe(false);
  });
});
