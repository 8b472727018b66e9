/**
 * The one interface every thread store implements. The memory store is the reference backend;
 * `runStoreConformance` (`src/testing/storeConformance.ts`) is the suite every backend must pass.
 *
 * A thread is an append-only log of {@link ThreadItem}s with a version equal to its visible
 * length. Positions are 0-based: the item at position `p` was appended when the version was `p`.
 * Backends extend `BaseStore` (`baseStore.ts`), which checks every argument once and calls a few
 * primitives; a store may also implement this interface directly.
 * @module
 */
import type { StoreCapabilities } from './capabilities.js';
import type { ThreadItem } from './item.js';

/**
 * The lease capability of a store; `holdLease` in `lease.ts` builds on it. Every method is atomic
 * on the store's side.
 */
export interface Leases {
  /** Takes `key` for `owner` for `ttlMs` ms; true if taken or already held by `owner` (then renewed). */
  acquire(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease `owner` holds; false if it was lost (expired and taken, or released). */
  renew(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lease if `owner` holds it; otherwise does nothing. */
  release(key: string, owner: string): Promise<void>;
}

/** What a store knows about one thread, without its items. */
export interface ThreadRecord {
  threadId: string;
  /** The chat the thread belongs to, or `null` for threads outside any chat. */
  chatId: string | null;
  /** Number of visible items; the next append must name this as its `expectedVersion`. */
  version: number;
  /** Free-form JSON metadata (a workflow's execution state lives here). */
  metadata: Record<string, unknown>;
  /** Where the thread was forked from, if it was: the source and how many items it inherited. */
  forkedFrom: { threadId: string; version: number } | null;
  /** ISO-8601 timestamps. */
  createdAt: string;
  updatedAt: string;
}

/** Which items to read. With no option, every visible item in order. */
export interface ReadRange {
  /** First position to return (default 0). */
  from?: number;
  /** Maximum number of items to return, counting from `from`. */
  limit?: number;
  /** Return only the last `newest` visible items (ignores `from`/`limit`). Costs O(newest). */
  newest?: number;
}

/** Options of {@link ThreadStore.append}. */
export interface AppendOptions {
  /** The version the writer last saw. A different current version raises `ConflictError`. */
  expectedVersion: number;
  /** Chat to file a new thread under (ignored when the thread exists). */
  chatId?: string | null;
}

/** One thread's part of {@link ThreadStore.appendMany}: what `append` would take. */
export interface AppendBatchEntry {
  threadId: string;
  items: ThreadItem[];
  options: AppendOptions;
  /**
   * Replaces the thread's metadata after its items are appended, in the same transaction (as
   * `setMetadata` would, creating the thread if needed). With no items the entry is a version
   * check plus this metadata (without `appendMany`, `appendBatch` skips the check): how a
   * workflow saves its head together with its threads' items.
   */
  metadata?: Record<string, unknown>;
}

/** Options of {@link ThreadStore.fork}. */
export interface ForkOptions {
  /** Inherit the first `upTo` items (default: all visible items). Must be 0..version. */
  upTo?: number;
  /** Chat of the new thread (default: the source's chat). */
  chatId?: string | null;
  /** Metadata of the new thread (default: a copy of the source's). */
  metadata?: Record<string, unknown>;
}

/** A consistent snapshot of a chat: every thread's version at one moment. */
export interface Checkpoint {
  checkpointId: string;
  chatId: string;
  label: string | null;
  createdAt: string;
  /** threadId → version at the time of the checkpoint. */
  threads: Record<string, number>;
  /**
   * threadId → id of its last item then (non-empty threads only). Lets time travel notice that a
   * rollback cut a thread below this checkpoint and new items took those positions.
   */
  heads?: Record<string, string>;
}

/**
 * Durable storage for threads. Implementations must make every method atomic: after a crash a
 * thread reads back either with or without a whole append, never with part of one.
 */
export interface ThreadStore {
  /** Short backend name for messages and benchmarks, e.g. `sqlite`. Never decides behaviour. */
  readonly kind: string;

  /**
   * What the store can do (see {@link StoreCapabilities}). Optional for stores written against
   * this interface; `storeCapabilities(store)` gives the safe default for those.
   */
  readonly capabilities?: StoreCapabilities;

  /**
   * Leases for coordinating writers (optional): one chat or ensemble run worked on by one caller
   * at a time. Redis and Postgres coordinate across processes and hosts, SQLite across the
   * processes that open the same file, memory and JSON files within one process. Whether an
   * Agency holds chat leases is decided by `capabilities.leases`, not by this field's presence.
   */
  readonly leases?: Leases;

  /** The thread's record, or `null` when no such thread exists. */
  getThread(threadId: string): Promise<ThreadRecord | null>;

  /** Visible items of a thread in order (an unknown thread reads as `[]`). */
  readItems(threadId: string, range?: ReadRange): Promise<ThreadItem[]>;

  /**
   * Appends items at the end, creating the thread on first append (expectedVersion 0).
   * Throws `ConflictError` when the thread's version differs from `expectedVersion`; nothing is
   * written then. Returns the new version.
   */
  append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number>;

  /**
   * Appends to several threads (each at most once) all or nothing, as one transaction (optional:
   * `appendBatch` falls back to one `append` per thread, then its `setMetadata`). Each entry is
   * checked as `append` checks it; when any entry's version differs, `ConflictError` names that
   * thread and nothing is written (metadata included). Returns the new versions, in order.
   * Present exactly when `capabilities.appendMany` is declared.
   */
  appendMany?(batch: readonly AppendBatchEntry[]): Promise<number[]>;

  /** Replaces a thread's metadata (creating an empty thread if needed). */
  setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void>;

  /** Threads of a chat (or every thread when `chatId` is omitted), ordered by threadId. */
  listThreads(filter?: { chatId?: string }): Promise<ThreadRecord[]>;

  /**
   * Makes `targetId` a new thread holding the first `upTo` items of `sourceId`. O(1) in the
   * source's length: the fork records its parent and position, it copies no items. Later appends
   * to either thread are invisible to the other. Throws if `targetId` exists.
   */
  fork(sourceId: string, targetId: string, options?: ForkOptions): Promise<ThreadRecord>;

  /**
   * Rolls a thread back to its first `version` items. The items after are not destroyed: they
   * stay readable under the returned archive thread id (which holds the whole history before the
   * rollback) until that thread is deleted. Returns `null` when nothing was cut (version equals
   * the current one). Formerly named `reset`.
   */
  rollback(threadId: string, version: number): Promise<string | null>;

  /** Deletes a thread. Items still inherited by forks stay readable through those forks. */
  deleteThread(threadId: string): Promise<void>;

  /** Records a checkpoint (checkpointId must be new). */
  putCheckpoint(checkpoint: Checkpoint): Promise<void>;

  /** Checkpoints of a chat, oldest first. */
  listCheckpoints(chatId: string): Promise<Checkpoint[]>;

  /** One checkpoint, or `null`. */
  getCheckpoint(checkpointId: string): Promise<Checkpoint | null>;

  /** Releases connections and file handles. The store is unusable afterwards. */
  close(): Promise<void>;
}
