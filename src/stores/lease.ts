/**
 * Leases: a key held by one owner for a limited time, so that one process at a time works on a
 * chat or an ensemble run. A store that can coordinate writers offers them as `store.leases`
 * (memory, SQLite and JSON files within their reach; Redis and Postgres across processes).
 *
 * A lease expires unless renewed, so a holder that dies releases it by itself after `ttlMs`.
 * {@link holdLease} takes one, renews it while held and says when it was lost.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ColloquyError, ConfigError } from '../errors.js';
import type { Leases } from './types.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';

export type { Leases } from './types.js';

/** Another owner holds the lease and did not let go within the wait. */
export class LeaseBusyError extends ColloquyError {
  /** The lease key that was busy. */
  readonly key: string;

  constructor(key: string, waitedMs: number) {
    super(
      'LEASE_BUSY',
      `"${key}" is in use by another caller (waited ${waitedMs} ms). ` +
        'Wait for the other call to finish and try again, or pass a longer waitMs.',
    );
    this.key = key;
  }
}

/** Options of {@link holdLease}. Every field is optional. */
export interface HoldLeaseOptions {
  /** How long the lease lives without renewal (default 30,000 ms); renewed every ttl/3 while held. */
  ttlMs?: number;
  /** How long to wait for a busy lease before throwing {@link LeaseBusyError} (default 0: try once). */
  waitMs?: number;
  /** The owner id (default: a random UUID). */
  owner?: string;
  /** Stops waiting (rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** A held lease. */
export interface LeaseHandle {
  /** The key held. */
  readonly key: string;
  /** The owner id the lease is held under. */
  readonly owner: string;
  /** True once a renewal found the lease taken by someone else (or failed). */
  readonly lost: boolean;
  /** Stops renewing and releases the lease. Safe to call twice. */
  release(): Promise<void>;
  /**
   * Lets the next store write fenced with this lease release it in the same transaction, one
   * commit instead of two, where the store's leases can ({@link FoldingLeases}: SQLite). Call it
   * right before the holder's last write, and call the function it returns right after that
   * write, failed or not: it returns true when the write committed and released the lease (then
   * the lease is no longer renewed and `release()` does nothing), false when the lease is still
   * held and `release()` must release it as usual.
   */
  releaseWithNextWrite?(): () => boolean;
}

/**
 * {@link Leases} that can release a lease inside the transaction of a write fenced with it. The
 * store checks the write's fences in its transaction; an armed lease among them is released
 * there, and counts as released once that transaction commits.
 */
export interface FoldingLeases extends Leases {
  /** Arms `owner`'s lease on `key`: the next committed write fenced with it releases it. */
  armRelease(key: string, owner: string): void;
  /** Disarms it; true when a committed write has released it meanwhile. */
  disarmRelease(key: string, owner: string): boolean;
}

/** Whether `leases` can release a lease with a fenced write ({@link FoldingLeases}). */
export function isFoldingLeases(leases: Leases): leases is FoldingLeases {
  const folding = leases as Partial<FoldingLeases>;
  return typeof folding.armRelease === 'function' && typeof folding.disarmRelease === 'function';
}

const DEFAULT_TTL_MS = 30_000;
const MAX_POLL_MS = 250;

/**
 * Waits up to `waitMs` for `key`, then keeps it renewed until released.
 *
 * @example
 * ```ts
 * const lease = await holdLease(store.leases!, `chat:${chatId}`, { waitMs: 10_000 });
 * try {
 *   await work();
 * } finally {
 *   await lease.release();
 * }
 * ```
 */
export async function holdLease(
  leases: Leases,
  key: string,
  options: HoldLeaseOptions = {},
): Promise<LeaseHandle> {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const waitMs = options.waitMs ?? 0;
  if (!Number.isFinite(ttlMs) || ttlMs < 30) {
    throw new ConfigError(`holdLease: ttlMs ${ttlMs} is too short. Use at least 30 ms.`);
  }
  const owner = options.owner ?? randomUUID();
  const started = Date.now();
  for (let attempt = 0; !(await leases.acquire(key, owner, ttlMs)); attempt++) {
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new LeaseBusyError(key, waited);
    const pause = Math.min(MAX_POLL_MS, 10 * 2 ** attempt, waitMs - waited);
    await sleep(pause, undefined, { signal: options.signal }).catch((error: unknown) => {
      throw options.signal?.aborted ? options.signal.reason : error;
    });
  }
  return keepLease(leases, key, owner, ttlMs);
}

/**
 * Keeps a lease `owner` has just acquired (by other means than {@link holdLease}, e.g. a store's
 * combined statement) renewed until released, like the handle holdLease returns.
 */
export function keepLease(leases: Leases, key: string, owner: string, ttlMs: number): LeaseHandle {
  let lost = false;
  let released = false;
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewal = leases.renew(key, owner, ttlMs).then(
        (held) => void (lost ||= !held),
        () => void (lost = true),
      );
    },
    Math.max(10, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return {
    key,
    owner,
    get lost() {
      return lost;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewal;
      await leases.release(key, owner);
    },
    releaseWithNextWrite() {
      if (released || !isFoldingLeases(leases)) return () => false;
      leases.armRelease(key, owner);
      return () => {
        if (!leases.disarmRelease(key, owner)) return false;
        released = true;
        clearInterval(timer);
        return true;
      };
    },
  };
}

/**
 * Leases kept in this process's memory: the reference implementation, and what the memory store
 * (and any single-process store) offers.
 */
export class MemoryLeases implements Leases {
  readonly #held = new Map<string, { owner: string; expires: number }>();

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const current = this.#held.get(key);
    if (current && current.owner !== owner && current.expires > now) return false;
    this.#held.set(key, { owner, expires: now + ttlMs });
    return true;
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    // An expired lease nobody else took is still the owner's: renewing it is safe.
    const current = this.#held.get(key);
    if (!current || current.owner !== owner) return false;
    current.expires = Date.now() + ttlMs;
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.#held.get(key)?.owner === owner) this.#held.delete(key);
  }
}

/** In-process leases by resource: one map per runtime. */
const PROCESS_LEASES = defineRuntimeSlot(
  'stores.processLeases',
  () => new Map<string, MemoryLeases>(),
);

/**
 * The leases of one resource (a directory, a file) shared by every store object of `runtime`
 * (default: the process's default runtime) that opens it; used by stores whose files give no
 * cross-process coordination. Two runtimes hold separate leases, as two processes would.
 */
export function leasesInProcess(
  scope: string,
  runtime: ColloquyRuntime = defaultRuntime(),
): MemoryLeases {
  const byScope = runtime.use(PROCESS_LEASES);
  let leases = byScope.get(scope);
  if (!leases) byScope.set(scope, (leases = new MemoryLeases()));
  return leases;
}
