/**
 * What a store can do, declared by the store instead of guessed from its `kind` name: the chat
 * lease, the trace store, batched saves and the queue worker's shared-store check read these.
 * @module
 */
import type { ThreadStore } from './types.js';

/**
 * The capabilities a {@link ThreadStore} declares. Each flag promises a behaviour that the
 * conformance suite (`runStoreConformance`) checks.
 */
export interface StoreCapabilities {
  /**
   * `store.leases` coordinate callers beyond this one store object: other store objects on the
   * same storage (a file, a directory, a database), and other processes when `crossProcess` is
   * set. An Agency then holds a chat's lease for each call. The memory store's leases reach only
   * its own object (which the Agency's in-process chat gate already serializes), so it declares
   * `false` although it has `leases`.
   */
  leases: boolean;
  /**
   * `store.appendMany` exists: one all-or-nothing transaction over several threads (an agency
   * call saves all its threads in one commit). Declared exactly when the method is there.
   */
  appendMany: boolean;
  /**
   * `traceStoreFor(store)` gives a durable trace store kept in the store's own storage (the same
   * SQLite file, Redis key prefix or Postgres schema). Without it traces live in process memory.
   */
  traces: boolean;
  /**
   * Every process, on any host, that opens the same store (a Redis or Postgres server) sees the
   * same threads, and version checks and leases hold across them: what servers and queue workers
   * sharing one store need. Stores kept in a file or in memory declare `false`.
   */
  crossProcess: boolean;
}

/**
 * The capabilities of `store`: what it declares, or for a store written against the interface
 * without `capabilities`, a safe default: `leases` and `appendMany` when it has them (a lease is
 * then held for each chat call, which is always correct), no durable traces (they stay in
 * memory) and not `crossProcess` (queue workers refuse it).
 *
 * @example
 * ```ts
 * import { MemoryStore, storeCapabilities } from 'colloquy/stores';
 *
 * storeCapabilities(new MemoryStore()); // { leases: false, appendMany: false, traces: false, crossProcess: false }
 * ```
 */
export function storeCapabilities(store: ThreadStore): StoreCapabilities {
  return (
    store.capabilities ?? {
      leases: store.leases !== undefined,
      appendMany: typeof store.appendMany === 'function',
      traces: false,
      crossProcess: false,
    }
  );
}
