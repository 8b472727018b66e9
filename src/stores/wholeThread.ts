/**
 * Shared core of the stores that load and save a whole thread at a time ({@link JsonFileStore},
 * {@link CallbackStore}). Every operation on one thread runs under an in-process lock, so the
 * version check and the save are atomic within one process. Forks and resets copy items.
 * @module
 */
import { ConflictError } from '../errors.js';
import type { ThreadItem } from './item.js';
import type { SerializedThread } from './callback.js';
import {
  archiveThreadId,
  checkFork,
  checkReset,
  jsonCopy,
  resolveRange,
  serializeItem,
  threadNotFound,
} from './common.js';
import type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';
import { checkIds } from './ids.js';
import { KeyedLock } from './keyedLock.js';

/** The record part of a serialized thread. */
export function recordOf(thread: SerializedThread): ThreadRecord {
  const { items: _items, schemaVersion: _v, ...record } = thread;
  return jsonCopy(record);
}

/** A store whose backend persists whole {@link SerializedThread}s. */
export abstract class WholeThreadStore implements ThreadStore {
  abstract readonly kind: string;
  readonly #locks = new KeyedLock();

  /** The stored thread, or `null`. */
  protected abstract loadThread(threadId: string): Promise<SerializedThread | null>;
  /** Replaces the stored thread atomically. */
  protected abstract saveThread(thread: SerializedThread): Promise<void>;
  /** Removes a stored thread (no-op when absent). */
  protected abstract removeThread(threadId: string): Promise<void>;
  /** Every stored thread. */
  protected abstract loadAllThreads(): Promise<SerializedThread[]>;
  abstract putCheckpoint(checkpoint: Checkpoint): Promise<void>;
  abstract listCheckpoints(chatId: string): Promise<Checkpoint[]>;
  abstract getCheckpoint(checkpointId: string): Promise<Checkpoint | null>;
  abstract close(): Promise<void>;

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkIds('getThread', threadId);
    const thread = await this.loadThread(threadId);
    return thread ? recordOf(thread) : null;
  }

  async readItems(threadId: string, range?: ReadRange): Promise<ThreadItem[]> {
    checkIds('readItems', threadId);
    const thread = await this.loadThread(threadId);
    const { start, end } = resolveRange(threadId, thread?.version ?? 0, range);
    return thread ? jsonCopy(thread.items.slice(start, end)) : [];
  }

  async append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    checkIds('append', threadId, options.chatId);
    const copies = items.map((item) => JSON.parse(serializeItem(threadId, item)) as ThreadItem);
    return this.withLock(threadId, async () => {
      const thread = await this.loadThread(threadId);
      const current = thread?.version ?? 0;
      if (current !== options.expectedVersion)
        throw new ConflictError(threadId, options.expectedVersion, current);
      if (copies.length === 0) return current;
      const next = thread ?? this.blankThread(threadId, options.chatId ?? null, {});
      next.items.push(...copies);
      next.version = next.items.length;
      next.updatedAt = new Date().toISOString();
      await this.saveThread(next);
      return next.version;
    });
  }

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    const copy = jsonCopy(metadata);
    await this.withLock(threadId, async () => {
      const thread =
        (await this.loadThread(threadId)) ?? this.blankThread(threadId, chatId ?? null, {});
      thread.metadata = copy;
      thread.updatedAt = new Date().toISOString();
      await this.saveThread(thread);
    });
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    checkIds('listThreads', filter.chatId);
    const all = await this.loadAllThreads();
    return all
      .filter((t) => filter.chatId === undefined || t.chatId === filter.chatId)
      .sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0))
      .map(recordOf);
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    checkIds('fork', sourceId, targetId, options.chatId);
    return this.withLock(targetId, async () => {
      const source = await this.loadThread(sourceId);
      if (!source) throw threadNotFound(`fork("${sourceId}" → "${targetId}")`, sourceId);
      const upTo = options.upTo ?? source.version;
      checkFork(
        sourceId,
        targetId,
        upTo,
        source.version,
        (await this.loadThread(targetId)) !== null,
      );
      const chatId = options.chatId !== undefined ? options.chatId : source.chatId;
      const target = this.blankThread(targetId, chatId, options.metadata ?? source.metadata);
      target.items = source.items.slice(0, upTo);
      target.version = upTo;
      target.forkedFrom = { threadId: sourceId, version: upTo };
      await this.saveThread(target);
      return recordOf(target);
    });
  }

  async reset(threadId: string, version: number): Promise<string | null> {
    checkIds('reset', threadId);
    return this.withLock(threadId, async () => {
      const thread = await this.loadThread(threadId);
      if (!thread) throw threadNotFound(`reset("${threadId}")`, threadId);
      checkReset(threadId, version, thread.version);
      if (version === thread.version) return null;
      const archive = this.blankThread(archiveThreadId(threadId), thread.chatId, thread.metadata);
      archive.items = thread.items;
      archive.version = thread.version;
      archive.forkedFrom = { threadId, version: thread.version };
      // Archive first: a crash in between leaves the thread uncut plus a spare archive, never a loss.
      await this.saveThread(archive);
      await this.saveThread({
        ...thread,
        items: thread.items.slice(0, version),
        version,
        updatedAt: new Date().toISOString(),
      });
      return archive.threadId;
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    checkIds('deleteThread', threadId);
    await this.withLock(threadId, () => this.removeThread(threadId));
  }

  /** Runs `fn` after every earlier locked operation on `key` has settled. */
  protected withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.#locks.run(key, fn);
  }

  /** A new, empty thread. */
  protected blankThread(
    threadId: string,
    chatId: string | null,
    metadata: Record<string, unknown>,
  ): SerializedThread {
    const now = new Date().toISOString();
    return {
      schemaVersion: 1,
      threadId,
      chatId,
      version: 0,
      metadata: jsonCopy(metadata),
      items: [],
      forkedFrom: null,
      createdAt: now,
      updatedAt: now,
    };
  }
}
