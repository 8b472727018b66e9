/**
 * The run lease: one caller at a time runs (or resumes) a given ensemble run. TEMPORARY stub
 * until the store lease primitive lands on main.
 * @module
 */
import type { ThreadStore } from '../stores/types.js';

/** Takes the lease of a run, or null when the store offers no leases. */
export async function holdRunLease(
  _store: ThreadStore,
  _runId: string,
  _waitMs: number,
  _signal?: AbortSignal,
): Promise<{ readonly lost: boolean; release(): Promise<void> } | null> {
  return null;
}
