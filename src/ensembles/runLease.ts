/**
 * The run lease: one caller at a time runs (or resumes) a given ensemble run, so that two
 * resumes of the same run never execute its agents twice. It uses the store's lease capability
 * (`store.leases`): across processes on SQLite, Redis and Postgres, within one process on the
 * memory and JSON-file stores. A store without leases runs without one.
 *
 * The lease lives {@link RUN_LEASE_TTL_MS} unless renewed (the holder renews it every third of
 * that), so a crashed holder frees it by itself. A new run does not wait for it; a resume waits
 * up to `leaseWaitMs` (default: a little more than the lease's life, so that resuming right
 * after a crash works) and is then refused with `LEASE_BUSY`.
 * @module
 */
import { ColloquyError } from '../errors.js';
import { holdLease, LeaseBusyError } from '../stores/lease.js';
import type { LeaseHandle } from '../stores/lease.js';
import type { ThreadStore } from '../stores/types.js';

/** How long a run's lease lives without renewal. */
export const RUN_LEASE_TTL_MS = 5_000;

/** How long a resume waits for a busy run by default. */
export const RUN_LEASE_RESUME_WAIT_MS = RUN_LEASE_TTL_MS + 1_000;

/** The lease key of a run. */
export function runLeaseKey(runId: string): string {
  return `ensemble-run:${runId}`;
}

/** Another caller is running the run. */
export class RunBusyError extends ColloquyError {
  readonly runId: string;

  constructor(runId: string, waitedMs: number, cause: unknown) {
    super(
      'LEASE_BUSY',
      `Ensemble run "${runId}" is being run by another caller (another resume, or another process on ` +
        `the same store); waited ${waitedMs} ms. Running it twice at once would run its agents twice. ` +
        'Wait for the other run to stop, then resume again (a crashed holder frees the run within ' +
        `${RUN_LEASE_TTL_MS / 1000} s), or wait longer with leaseWaitMs.`,
      { cause },
    );
    this.runId = runId;
  }
}

/** Takes the lease of a run, or returns null when the store offers no leases. */
export async function holdRunLease(
  store: ThreadStore,
  runId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<LeaseHandle | null> {
  if (!store.leases) return null;
  try {
    return await holdLease(store.leases, runLeaseKey(runId), {
      ttlMs: RUN_LEASE_TTL_MS,
      waitMs,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof LeaseBusyError) throw new RunBusyError(runId, waitMs, error);
    throw error;
  }
}
