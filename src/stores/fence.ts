/**
 * Lease fences: a write made on behalf of a lease holder lands only while that holder still holds
 * the lease. A worker frozen past its lease (SIGSTOP, a long GC pause, a VM migration) wakes up
 * believing it still owns the chat; meanwhile another worker took the lease and ran the call
 * again. Without a fence its late writes would land after the other worker's.
 *
 * {@link withFence} marks the work done under a lease; every store that offers leases (SQLite,
 * Redis, Postgres, and the in-process leases of the memory and JSON-file stores) checks the
 * active fences in the same transaction (or Lua script) as each write, and refuses the write
 * with {@link LeaseLostError} when one fails. The fence's token is the lease's owner id, which is
 * unique per holding (every `holdLease` takes a fresh one): a new holder always has another.
 * @module
 */
import { contextSlot, readSlot, runInSlot } from '../asyncContext.js';
import { ColloquyError } from '../errors.js';

/** A lease that the writes of some work must still be held under. */
export interface Fence {
  /** The lease key, as given to `Leases.acquire`. */
  readonly key: string;
  /** The owner id (the fencing token) the lease was taken under. */
  readonly owner: string;
}

/**
 * A write was refused because the lease it was fenced with is no longer held by its owner
 * (expired and taken by another holder, or released). Nothing was written.
 */
export class LeaseLostError extends ColloquyError {
  /** The lease key whose holder changed. */
  readonly key: string;

  constructor(key: string, operation: string) {
    super(
      'LEASE_BUSY',
      `${operation} was refused: the lease "${key}" it was made under is no longer held by this ` +
        'caller (it expired, for instance while the process was paused, and another caller took ' +
        'it). Nothing was written; the work must be abandoned, and the new holder continues it.',
    );
    this.key = key;
  }
}

/** Fences of the running work (outermost first). Process-wide by design: a slot of the async context. */
const active = contextSlot<readonly Fence[]>('lease fences');

/**
 * Runs `work` with `fence` added to the active fences: every store write it makes (directly or
 * through an agency) lands only while each active fence's lease is still held by its owner.
 *
 * @example
 * ```ts
 * const lease = await holdLease(store.leases!, 'chat:c1');
 * try {
 *   await withFence({ key: lease.key, owner: lease.owner }, () => agency.getResponse('hi'));
 * } finally {
 *   await lease.release();
 * }
 * ```
 */
export function withFence<T>(fence: Fence, work: () => Promise<T>): Promise<T> {
  const outer = readSlot(active) ?? [];
  return runInSlot(active, [...outer, { key: fence.key, owner: fence.owner }], work);
}

/** The fences the current write must pass (empty outside {@link withFence}). */
export function activeFences(): readonly Fence[] {
  return readSlot(active) ?? [];
}

/**
 * Checks the active fences against `holderOf(key)` (the lease's current owner, or undefined/null
 * when nobody holds it); throws {@link LeaseLostError} for the first that fails. For stores whose
 * lookup and write run in one synchronous section or transaction.
 */
export function checkFences(
  operation: string,
  holderOf: (key: string) => string | null | undefined,
  fences: readonly Fence[] = activeFences(),
): void {
  for (const fence of fences) {
    if (holderOf(fence.key) !== fence.owner) throw new LeaseLostError(fence.key, operation);
  }
}

/** Whether `error` (or its cause) is a fence refusal. */
export function isLeaseLost(error: unknown): boolean {
  if (error instanceof LeaseLostError) return true;
  return (
    error instanceof Error &&
    error.cause !== undefined &&
    error.cause !== error &&
    isLeaseLost(error.cause)
  );
}
