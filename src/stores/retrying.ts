/**
 * {@link withRetry}: wraps any store so that operations failing with a transient `StoreError`
 * (a busy database, a dropped connection) are retried with exponential backoff and jitter.
 * @module
 */
import pRetry from 'p-retry';
import { StoreError } from '../errors.js';
import { storeCapabilities } from './capabilities.js';
import { delegateTraceStore } from './traceStores.js';
import type { ThreadStore } from './types.js';

/** Options of {@link withRetry}. */
export interface RetryOptions {
  /** Retries after the first attempt (default 5). */
  retries?: number;
  /** Delay before the first retry, in ms (default 50); doubles each time, with jitter. */
  minTimeoutMs?: number;
  /** Upper bound of one delay, in ms (default 2000). */
  maxTimeoutMs?: number;
}

const DEFAULTS: Required<RetryOptions> = { retries: 5, minTimeoutMs: 50, maxTimeoutMs: 2000 };

/** Whether an error is worth retrying: a `StoreError` marked transient (never a `ConflictError`). */
export function isTransient(error: unknown): boolean {
  return error instanceof StoreError && error.transient;
}

/**
 * Returns a store that retries transient failures of `store`. `ConflictError` and every other
 * error pass through at once: a conflict needs the caller to re-read, not a blind retry. A retried
 * `append` is safe because its `expectedVersion` makes a repeat after a lost success a conflict.
 *
 * @example
 * ```ts
 * const store = withRetry(new SqliteStore({ path: 'threads.db' }), { retries: 3 });
 * ```
 */
export function withRetry(store: ThreadStore, options: RetryOptions = {}): ThreadStore {
  const opts = { ...DEFAULTS, ...options };
  const retry = <T>(run: () => Promise<T>): Promise<T> =>
    pRetry(run, {
      retries: opts.retries,
      minTimeout: opts.minTimeoutMs,
      maxTimeout: opts.maxTimeoutMs,
      factor: 2,
      randomize: true,
      shouldRetry: ({ error }) => isTransient(error),
    });
  const wrapper: ThreadStore = {
    kind: store.kind,
    // The wrapped store's capabilities: leases and appendMany are forwarded, traces delegated.
    capabilities: storeCapabilities(store),
    // Leases are not retried: a lost acquire must be seen by holdLease, which polls on its own.
    ...(store.leases ? { leases: store.leases } : {}),
    getThread: (threadId) => retry(() => store.getThread(threadId)),
    readItems: (threadId, range) => retry(() => store.readItems(threadId, range)),
    append: (threadId, items, appendOptions) =>
      retry(() => store.append(threadId, items, appendOptions)),
    // Safe to retry for the same reason as append: every entry names its expected version.
    ...(store.appendMany ? { appendMany: (batch) => retry(() => store.appendMany!(batch)) } : {}),
    setMetadata: (threadId, metadata, chatId) =>
      retry(() => store.setMetadata(threadId, metadata, chatId)),
    listThreads: (filter) => retry(() => store.listThreads(filter)),
    fork: (sourceId, targetId, forkOptions) =>
      retry(() => store.fork(sourceId, targetId, forkOptions)),
    rollback: (threadId, version) => retry(() => store.rollback(threadId, version)),
    deleteThread: (threadId) => retry(() => store.deleteThread(threadId)),
    putCheckpoint: (checkpoint) => retry(() => store.putCheckpoint(checkpoint)),
    listCheckpoints: (chatId) => retry(() => store.listCheckpoints(chatId)),
    getCheckpoint: (checkpointId) => retry(() => store.getCheckpoint(checkpointId)),
    close: () => store.close(),
  };
  // The wrapped store's traces (same database) stay its traces.
  delegateTraceStore(wrapper, store);
  return wrapper;
}
