/**
 * The thread manager: a cache of {@link ConversationThread}s over a {@link ThreadStore}.
 * Saves are serialized per thread, and a save that loses a race with another writer re-reads the
 * other writer's items and appends after them, so no item is lost or duplicated.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import { LRUCache } from 'lru-cache';
import { ConflictError } from '../errors.js';
import type { ThreadStore } from '../stores/types.js';
import { appendBatch } from '../stores/appendBatch.js';
import { MemoryStore } from '../stores/memory.js';
import { ConversationThread } from './conversationThread.js';
import type { ItemMeta } from '../stores/item.js';
import { KeyedLock } from '../stores/keyedLock.js';
import type { LeaseHandle } from '../stores/lease.js';
import { threadIdFor } from './threadId.js';

/** Options of {@link ThreadManager}. */
export interface ThreadManagerOptions {
  /** Where threads live (default: a new in-memory store). */
  store?: ThreadStore;
  /** How many times a save re-reads and retries after losing a race (default 20). */
  maxConflictRetries?: number;
  /**
   * How many threads to keep cached (default 1000). The least recently used threads with nothing
   * pending are dropped past that; they are read again from the store when next needed. A thread
   * with unsaved items is never dropped: it stays (outside the count) until it is saved.
   */
  cacheSize?: number;
}

/** The lease a save may release with its write (see {@link ThreadManager.saveThreads}). */
type LastWriteOf = Pick<LeaseHandle, 'releaseWithNextWrite'> | undefined;

/**
 * Gets, caches and saves conversation threads.
 *
 * @example
 * ```ts
 * const threads = new ThreadManager({ store: new SqliteStore({ path: 'chats.db' }) });
 * const thread = await threads.getThread('chat-1', 'Coordinator');
 * await threads.addItemsAndSave(thread, [{ role: 'user', content: 'hello' }]);
 * ```
 */
export class ThreadManager {
  readonly store: ThreadStore;
  /** The most recently used threads. */
  readonly #cache: LRUCache<string, ConversationThread>;
  /** Threads the cache dropped while they held unsaved items: kept until they are saved. */
  readonly #pinned = new Map<string, ConversationThread>();
  readonly #lock = new KeyedLock();
  readonly #maxConflictRetries: number;

  constructor(options: ThreadManagerOptions = {}) {
    this.store = options.store ?? new MemoryStore();
    this.#maxConflictRetries = options.maxConflictRetries ?? 20;
    this.#cache = new LRUCache({
      max: Math.max(1, options.cacheSize ?? 1000),
      // Dropping a thread with unsaved items would lose them: it moves aside until saved.
      dispose: (thread, threadId, reason) => {
        if (reason === 'evict' && thread.hasPending) this.#pinned.set(threadId, thread);
      },
    });
  }

  /** The id of the thread between `agent` and `other` (or the user when `other` is omitted). */
  threadId(chatId: string, agent: string, other: string | null = null): string {
    return threadIdFor(chatId, agent, other);
  }

  /** The thread between `agent` and `other` (or the user), loaded or created. */
  getThread(
    chatId: string,
    agent: string,
    other: string | null = null,
  ): Promise<ConversationThread> {
    return this.getThreadById(threadIdFor(chatId, agent, other), chatId);
  }

  /** A thread by id, brought up to date with the store. */
  getThreadById(threadId: string, chatId: string | null = null): Promise<ConversationThread> {
    return this.#serialized(threadId, async () => {
      const cached = this.#cache.get(threadId) ?? this.#pinned.get(threadId);
      if (cached) {
        this.#remember(cached);
        await this.#catchUp(cached);
        return cached;
      }
      const record = await this.store.getThread(threadId);
      const items = record ? await this.store.readItems(threadId) : [];
      const thread = new ConversationThread({
        threadId,
        chatId: record?.chatId ?? chatId,
        items,
        metadata: record?.metadata ?? {},
        savedVersion: items.length,
      });
      this.#remember(thread);
      return thread;
    });
  }

  /** Appends items to a thread and saves them. */
  async addItemsAndSave(
    thread: ConversationThread,
    items: readonly AgentInputItem[],
    meta?: ItemMeta,
  ): Promise<void> {
    thread.addItems(items, meta);
    await this.saveThread(thread);
  }

  /**
   * Saves a thread's pending items. If another writer appended first, its items are read and
   * placed before ours, then ours are appended after them. Store errors propagate to the caller.
   */
  saveThread(thread: ConversationThread): Promise<void> {
    return this.#save(thread, undefined);
  }

  /** {@link saveThread}; each attempt (one store write) may release `lease` (see saveThreads). */
  #save(thread: ConversationThread, lease: LastWriteOf): Promise<void> {
    this.#remember(thread);
    return this.#serialized(thread.threadId, async () => {
      for (let attempt = 0; ; attempt++) {
        const pending = thread.pending;
        if (pending.length === 0) return;
        const settle = lease?.releaseWithNextWrite?.();
        try {
          thread.savedVersion = await this.store.append(thread.threadId, pending, {
            expectedVersion: thread.savedVersion,
            chatId: thread.chatId,
          });
          this.#unpin(thread);
          return;
        } catch (error) {
          if (!(error instanceof ConflictError) || attempt >= this.#maxConflictRetries) throw error;
          await this.#catchUp(thread);
        } finally {
          settle?.();
        }
      }
    });
  }

  /**
   * Saves the pending items of several threads: in one store transaction when the store offers
   * `appendMany` (an agency call saves all its threads in one commit), else one thread after the
   * other. A batch that loses a race with another writer is saved thread by thread instead, each
   * re-reading and retrying as {@link ThreadManager.saveThread} does.
   *
   * `options.lastWriteOf`: the lease the save is fenced with, when it is the holder's last write.
   * A save made in one store write releases that lease in the write's transaction where the
   * store can (SQLite), one commit instead of two. Otherwise (several writes, a lost race,
   * another store) the lease stays held and its holder releases it as usual.
   */
  async saveThreads(
    threads: Iterable<ConversationThread>,
    options: { lastWriteOf?: Pick<LeaseHandle, 'releaseWithNextWrite'> } = {},
  ): Promise<void> {
    const dirty = [...new Set(threads)].filter((thread) => thread.hasPending);
    const lease = options.lastWriteOf;
    if (dirty.length === 1) return this.#save(dirty[0]!, lease);
    if (dirty.length > 1 && this.store.appendMany) {
      dirty.forEach((thread) => this.#remember(thread));
      const ids = dirty.map((thread) => thread.threadId).sort();
      const saved = await this.#serializedAll(ids, async () => {
        const batch = dirty.map((thread) => ({ thread, pending: thread.pending }));
        const settle = lease?.releaseWithNextWrite?.();
        try {
          const versions = await appendBatch(
            this.store,
            batch.map(({ thread, pending }) => ({
              threadId: thread.threadId,
              items: pending,
              options: { expectedVersion: thread.savedVersion, chatId: thread.chatId },
            })),
          );
          batch.forEach(({ thread }, i) => {
            thread.savedVersion = versions[i]!;
            this.#unpin(thread);
          });
          return true;
        } catch (error) {
          if (error instanceof ConflictError) return false;
          throw error;
        } finally {
          settle?.();
        }
      });
      if (saved) return;
    }
    for (const thread of dirty) await this.saveThread(thread);
  }

  /** Forgets cached threads (all, or those of one chat), so the next get reads the store. */
  evict(chatId?: string): void {
    for (const [id, thread] of this.#cache.entries()) {
      if (chatId === undefined || thread.chatId === chatId) this.#cache.delete(id);
    }
    for (const [id, thread] of this.#pinned) {
      if (chatId === undefined || thread.chatId === chatId) this.#pinned.delete(id);
    }
  }

  /** Marks a thread most recently used (a pinned one goes back into the cache). */
  #remember(thread: ConversationThread): void {
    const id = thread.threadId;
    if (this.#cache.get(id) === thread) return;
    this.#pinned.delete(id);
    this.#cache.set(id, thread);
  }

  /** A pinned thread that has been saved goes back into the cache (most recently used). */
  #unpin(thread: ConversationThread): void {
    if (this.#pinned.get(thread.threadId) !== thread) return;
    this.#pinned.delete(thread.threadId);
    this.#cache.set(thread.threadId, thread);
  }

  /** Inserts items other writers saved since our last read before our pending items. */
  async #catchUp(thread: ConversationThread): Promise<void> {
    const record = await this.store.getThread(thread.threadId);
    const version = record?.version ?? 0;
    if (version === thread.savedVersion) return;
    if (version < thread.savedVersion) {
      // The store was cut back (rollback) or replaced: reload from scratch, keeping pending items.
      const pending = thread.pending;
      const items = await this.store.readItems(thread.threadId);
      thread.items.splice(0, thread.items.length, ...items, ...pending);
      thread.savedVersion = items.length;
      return;
    }
    const theirs = await this.store.readItems(thread.threadId, { from: thread.savedVersion });
    thread.items.splice(thread.savedVersion, 0, ...theirs);
    thread.savedVersion += theirs.length;
  }

  #serialized<T>(threadId: string, task: () => Promise<T>): Promise<T> {
    return this.#lock.run(threadId, task);
  }

  /** Runs `task` holding the locks of every id (taken in the given, sorted, order: no deadlock). */
  #serializedAll<T>(threadIds: readonly string[], task: () => Promise<T>): Promise<T> {
    const [first, ...rest] = threadIds;
    if (first === undefined) return task();
    return this.#serialized(first, () => this.#serializedAll(rest, task));
  }
}
