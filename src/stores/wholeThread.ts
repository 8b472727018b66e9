/**
 * Shared core of the stores that load and save a whole thread at a time ({@link JsonFileStore},
 * {@link CallbackStore}). Every operation on one thread runs under an in-process lock, so the
 * version check and the save are atomic within one process. Forks and resets copy items.
 * @module
 */
import { ConflictError } from '../errors.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import type { ThreadItem } from './item.js';
import type { SerializedThread } from './callback.js';
import { jsonCopy, rangeSpan } from './common.js';
import type { AppendOptions, ReadRange, ThreadRecord } from './types.js';
import { KeyedLock } from './keyedLock.js';

/** The record part of a serialized thread. */
export function recordOf(thread: SerializedThread): ThreadRecord {
  const { items: _items, schemaVersion: _v, ...record } = thread;
  return jsonCopy(record);
}

/**
 * A store whose backend persists whole {@link SerializedThread}s: implement the four thread
 * primitives below (and `close`); the {@link BaseStore} primitives are built on them.
 */
export abstract class WholeThreadStore extends BaseStore {
  readonly #locks = new KeyedLock();

  /** The stored thread, or `null`. */
  protected abstract loadThread(threadId: string): Promise<SerializedThread | null>;
  /** Replaces the stored thread atomically. */
  protected abstract saveThread(thread: SerializedThread): Promise<void>;
  /** Removes a stored thread (no-op when absent). */
  protected abstract deleteStoredThread(threadId: string): Promise<void>;
  /** Every stored thread. */
  protected abstract loadAllThreads(): Promise<SerializedThread[]>;

  protected async readRecord(threadId: string): Promise<ThreadRecord | null> {
    const thread = await this.loadThread(threadId);
    return thread ? recordOf(thread) : null;
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    const thread = await this.loadThread(threadId);
    if (!thread) return [];
    const { start, end } = rangeSpan(thread.version, range);
    return jsonCopy(thread.items.slice(start, end));
  }

  protected async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    const copies = bodies.map((body) => JSON.parse(body) as ThreadItem);
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

  protected async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    const copy = JSON.parse(metadata) as Record<string, unknown>;
    await this.withLock(threadId, async () => {
      const thread =
        (await this.loadThread(threadId)) ?? this.blankThread(threadId, chatId ?? null, {});
      thread.metadata = copy;
      thread.updatedAt = new Date().toISOString();
      await this.saveThread(thread);
    });
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    const all = await this.loadAllThreads();
    return all
      .filter((t) => chatId === undefined || t.chatId === chatId)
      .sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0))
      .map(recordOf);
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const { sourceId, targetId } = request;
    return this.withLock(targetId, async () => {
      const source = await this.loadThread(sourceId);
      const exists = source ? (await this.loadThread(targetId)) !== null : false;
      const upTo = request.check(source?.version ?? null, exists);
      const chatId = request.chatId !== undefined ? request.chatId : source!.chatId;
      const metadata =
        request.metadata === undefined
          ? source!.metadata
          : (JSON.parse(request.metadata) as Record<string, unknown>);
      const target = this.blankThread(targetId, chatId, metadata);
      target.items = source!.items.slice(0, upTo);
      target.version = upTo;
      target.forkedFrom = { threadId: sourceId, version: upTo };
      await this.saveThread(target);
      return recordOf(target);
    });
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version, archiveId } = request;
    return this.withLock(threadId, async () => {
      const thread = await this.loadThread(threadId);
      if (!request.check(thread?.version ?? null)) return null;
      const { chatId, metadata, items, version: current } = thread!;
      const archive = this.blankThread(archiveId, chatId, metadata);
      archive.items = items;
      archive.version = current;
      archive.forkedFrom = { threadId, version: current };
      // Archive first: a crash in between leaves the thread uncut plus a spare archive, never a loss.
      await this.saveThread(archive);
      await this.saveThread({
        ...thread!,
        items: items.slice(0, version),
        version,
        updatedAt: new Date().toISOString(),
      });
      return archiveId;
    });
  }

  protected async removeThread(threadId: string): Promise<void> {
    await this.withLock(threadId, () => this.deleteStoredThread(threadId));
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
