/** Conformance: the optional `leases` capability (acquire, renew, release, expiry). @module */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { holdLease, LeaseBusyError } from '../../stores/lease.js';
import type { Leases } from '../../stores/lease.js';
import type { StoreHandle } from './helpers.js';

/** Lease semantics every store that offers `leases` must have; skipped for stores without. */
export function leaseTests(store: StoreHandle): void {
  describe('leases', () => {
    const leases = (): Leases => {
      const found = store().leases;
      if (!found) throw new Error('unreachable: guarded by skip');
      return found;
    };

    it('gives a free key to the first owner only', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      expect(await leases().acquire('chat:a', 'one', 5_000)).toBe(true);
      expect(await leases().acquire('chat:a', 'two', 5_000)).toBe(false);
      expect(await leases().acquire('chat:a', 'one', 5_000)).toBe(true);
      expect(await leases().acquire('chat:b', 'two', 5_000)).toBe(true);
    });

    it('renews only for the holder and frees on release', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      expect(await leases().acquire('k', 'one', 5_000)).toBe(true);
      expect(await leases().renew('k', 'one', 5_000)).toBe(true);
      expect(await leases().renew('k', 'two', 5_000)).toBe(false);
      await leases().release('k', 'two');
      expect(await leases().acquire('k', 'two', 5_000)).toBe(false);
      await leases().release('k', 'one');
      expect(await leases().renew('k', 'one', 5_000)).toBe(false);
      expect(await leases().acquire('k', 'two', 5_000)).toBe(true);
    });

    it('lets another owner take an expired lease, which the old holder then cannot renew', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      expect(await leases().acquire('k', 'one', 60)).toBe(true);
      await sleep(120);
      expect(await leases().acquire('k', 'two', 5_000)).toBe(true);
      expect(await leases().renew('k', 'one', 5_000)).toBe(false);
    });

    it('gives a key to exactly one of many concurrent callers', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      const owners = Array.from({ length: 20 }, (_, i) => `owner-${i}`);
      const won = await Promise.all(owners.map((o) => leases().acquire('race', o, 5_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('holdLease waits for a busy key, then times out with LEASE_BUSY', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      const first = await holdLease(leases(), 'run:r1', { ttlMs: 5_000 });
      await expect(holdLease(leases(), 'run:r1', { waitMs: 100 })).rejects.toBeInstanceOf(
        LeaseBusyError,
      );
      const waiting = holdLease(leases(), 'run:r1', { waitMs: 5_000 });
      await sleep(50);
      await first.release();
      const second = await waiting;
      expect(second.owner).not.toBe(first.owner);
      expect(second.lost).toBe(false);
      await second.release();
    });

    it('holdLease keeps a short lease alive while held', async (ctx) => {
      if (!store().leases) return ctx.skip('this store offers no leases');
      const held = await holdLease(leases(), 'long', { ttlMs: 600 });
      await sleep(1_500); // two and a half lifetimes: only renewals keep it
      expect(await leases().acquire('long', 'intruder', 5_000)).toBe(false);
      expect(held.lost).toBe(false);
      await held.release();
      expect(await leases().acquire('long', 'intruder', 5_000)).toBe(true);
    });
  });
}
