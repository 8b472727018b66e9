/**
 * The trace store that goes with a thread store: SQLite traces live in the same file as the
 * threads; Redis and Postgres stores link theirs with {@link linkTraceStore}; any other store
 * (memory, JSON files) keeps its traces in memory for the life of the process.
 * @module
 */
import { storeCapabilities } from './capabilities.js';
import { MemoryTraceStore, type TraceStore } from './traceStore.js';
import type { ThreadStore } from './types.js';

const linked = new WeakMap<ThreadStore, TraceStore>();
const delegates = new WeakMap<ThreadStore, ThreadStore>();

/** Makes `traces` the trace store of `threads` (a backend that shares its connection calls this). */
export function linkTraceStore(threads: ThreadStore, traces: TraceStore): void {
  linked.set(threads, traces);
}

/**
 * Makes `wrapper` (a store that forwards to `inner`, e.g. `withRetry(inner)`) use the trace store
 * of `inner`.
 */
export function delegateTraceStore(wrapper: ThreadStore, inner: ThreadStore): void {
  delegates.set(wrapper, inner);
}

/**
 * The trace store of a thread store, opened on first use and then reused.
 *
 * @example
 * ```ts
 * const traces = await traceStoreFor(agency.threads.store);
 * const [latest] = await traces.listTraces({ chatId, limit: 1 });
 * ```
 */
export async function traceStoreFor(threads: ThreadStore): Promise<TraceStore> {
  const known = linked.get(threads);
  if (known) return known;
  const inner = delegates.get(threads);
  if (inner) return traceStoreFor(inner);
  const file = (threads as { path?: unknown }).path;
  let traces: TraceStore;
  // A store declaring traces that is not linked keeps them in its database file (SqliteStore).
  if (storeCapabilities(threads).traces && typeof file === 'string' && file !== ':memory:') {
    const { SqliteTraceStore } = await import('./sqliteTraces.js');
    // The thread store's own connection, when it lends one (see SqliteStore.connection).
    const database = (threads as { connection?: unknown }).connection as
      ConstructorParameters<typeof SqliteTraceStore>[0]['database'] | undefined;
    traces =
      linked.get(threads) ??
      new SqliteTraceStore({ path: file, ...(database?.open ? { database } : {}) });
  } else {
    traces = new MemoryTraceStore();
  }
  linked.set(threads, traces);
  return traces;
}
