/**
 * {@link BaseStore}: the one base of the built-in thread stores. Its public methods check every
 * argument once (ids, ranges, versions, forks, rollbacks, items, metadata, checkpoints) with the
 * same errors for every backend, then call eight primitives the backend implements. Checkpoints
 * come with a default (in process memory) that durable backends replace with three primitives.
 * @module
 */
import { StoreError } from '../errors.js';
import type { StoreCapabilities } from './capabilities.js';
import { archiveThreadId, checkpointExists, checkpointTime, checkRange } from './common.js';
import { checkIds } from './ids.js';
import type { ThreadItem } from './item.js';
import {
  checkExpectedVersion,
  ForkRequest,
  RollbackRequest,
  serializeMetadata,
  type BatchEntry,
  type CheckpointEntry,
} from './storeRequests.js';
import { serializeItem } from './common.js';
import type {
  AppendBatchEntry,
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';

export type { BatchEntry, CheckpointEntry } from './storeRequests.js';
export { ForkRequest, RollbackRequest } from './storeRequests.js';

/**
 * A thread store built on primitives. Extend it, declare `kind` and `capabilities`, and
 * implement the eight abstract primitives plus `close`; the base validates before calling them,
 * so a primitive only stores and reads. To offer `appendMany`, add the method and have it call
 * {@link BaseStore.appendManyWith} (then declare `capabilities.appendMany`).
 *
 * @example
 * ```ts
 * import { BaseStore, rangeSpan, type ForkRequest, type RollbackRequest } from 'colloquy/stores';
 * import { ConflictError, type ThreadItem, type ThreadRecord } from 'colloquy';
 *
 * class TinyStore extends BaseStore {
 *   readonly kind = 'tiny';
 *   readonly capabilities = { leases: false, appendMany: false, traces: false, crossProcess: false };
 *   readonly #threads = new Map<string, { record: ThreadRecord; bodies: string[] }>();
 *   protected async readRecord(id: string) {
 *     const t = this.#threads.get(id);
 *     return t ? structuredClone(t.record) : null;
 *   }
 *   // ...readRange, appendItems, writeMetadata, listRecords, forkThread, rollbackThread, removeThread
 * }
 * ```
 */
export abstract class BaseStore implements ThreadStore {
  abstract readonly kind: string;
  abstract readonly capabilities: StoreCapabilities;
  /** The default checkpoint area: checkpoint id → entry, in insertion order. */
  readonly #checkpoints = new Map<string, CheckpointEntry>();

  /** The thread's record, or `null`. */
  protected abstract readRecord(threadId: string): Promise<ThreadRecord | null>;
  /**
   * Visible items in `range` (its values are checked; `rangeSpan(version, range)` gives the
   * positions). An unknown thread reads as `[]`.
   */
  protected abstract readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]>;
  /**
   * Appends items (each as JSON text) atomically with the version check: throws `ConflictError`
   * when the version is not `options.expectedVersion`, creates the thread at version 0. Returns
   * the new version. `bodies` may be empty (a version check).
   */
  protected abstract appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number>;
  /** Replaces the metadata (JSON text of an object), creating an empty thread in `chatId` if needed. */
  protected abstract writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void>;
  /** The threads of a chat (`undefined`: every thread), ordered by threadId. */
  protected abstract listRecords(chatId: string | undefined): Promise<ThreadRecord[]>;
  /** Makes the fork, after `request.check(...)` against the source and target read atomically. */
  protected abstract forkThread(request: ForkRequest): Promise<ThreadRecord>;
  /**
   * Rolls back, after `request.check(current)` in the same transaction: the thread's whole
   * history moves under `request.archiveId` and the thread keeps its first `request.version`
   * items. Returns the archive id, or `null` when `check` says there is nothing to cut.
   */
  protected abstract rollbackThread(request: RollbackRequest): Promise<string | null>;
  /** Deletes a thread (no-op when absent); items inherited by forks stay readable there. */
  protected abstract removeThread(threadId: string): Promise<void>;
  abstract close(): Promise<void>;

  /** Keeps a new checkpoint; false when the id is taken. Default: in process memory. */
  protected async saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    if (this.#checkpoints.has(entry.checkpointId)) return false;
    this.#checkpoints.set(entry.checkpointId, entry);
    return true;
  }

  /** A checkpoint's JSON text, or `null`. */
  protected async loadCheckpoint(checkpointId: string): Promise<string | null> {
    return this.#checkpoints.get(checkpointId)?.body ?? null;
  }

  /** The JSON texts of a chat's checkpoints in insertion order (the base sorts by time). */
  protected async loadCheckpoints(chatId: string): Promise<string[]> {
    return [...this.#checkpoints.values()].filter((e) => e.chatId === chatId).map((e) => e.body);
  }

  /** Forgets the checkpoints of the default area (for `close`). */
  protected clearCheckpoints(): void {
    this.#checkpoints.clear();
  }

  // The hot methods are not `async`: they return the primitive's promise as it is (one promise
  // less per call) and turn a failed check into a rejection.

  getThread(threadId: string): Promise<ThreadRecord | null> {
    try {
      checkIds('getThread', threadId);
      return this.readRecord(threadId);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  readItems(threadId: string, range: ReadRange = {}): Promise<ThreadItem[]> {
    try {
      checkIds('readItems', threadId);
      checkRange(threadId, range);
      return this.readRange(threadId, range);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    try {
      checkIds('append', threadId, options.chatId);
      checkExpectedVersion('append', threadId, options.expectedVersion);
      const bodies = new Array<string>(items.length);
      for (let i = 0; i < items.length; i++) bodies[i] = serializeItem(threadId, items[i]!);
      return this.appendItems(threadId, bodies, options);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * `appendMany` for a backend that offers it: checks the batch (ids, versions, items, metadata,
   * each thread at most once) and hands the entries to `write`, which must apply all or none.
   */
  protected async appendManyWith(
    batch: readonly AppendBatchEntry[],
    write: (entries: BatchEntry[]) => Promise<number[]>,
  ): Promise<number[]> {
    const seen = new Set<string>();
    const entries = batch.map(({ threadId, items, options, metadata }): BatchEntry => {
      checkIds('appendMany', threadId, options.chatId);
      checkExpectedVersion('appendMany', threadId, options.expectedVersion);
      if (seen.has(threadId))
        throw new StoreError(
          `appendMany: thread "${threadId}" appears twice in one batch. Merge its items into one entry.`,
        );
      seen.add(threadId);
      return {
        threadId,
        options,
        bodies: items.map((item) => serializeItem(threadId, item)),
        metadata:
          metadata === undefined ? undefined : serializeMetadata('appendMany', threadId, metadata),
      };
    });
    return entries.length === 0 ? [] : write(entries);
  }

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    await this.writeMetadata(
      threadId,
      serializeMetadata('setMetadata', threadId, metadata),
      chatId,
    );
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    checkIds('listThreads', filter.chatId);
    return this.listRecords(filter.chatId);
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    checkIds('fork', sourceId, targetId, options.chatId);
    const metadata =
      options.metadata === undefined
        ? undefined
        : serializeMetadata('fork', targetId, options.metadata);
    return this.forkThread(
      new ForkRequest(sourceId, targetId, options.upTo, options.chatId, metadata),
    );
  }

  async rollback(threadId: string, version: number): Promise<string | null> {
    checkIds('rollback', threadId);
    return this.rollbackThread(new RollbackRequest(threadId, version, archiveThreadId(threadId)));
  }

  async deleteThread(threadId: string): Promise<void> {
    checkIds('deleteThread', threadId);
    await this.removeThread(threadId);
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    const { checkpointId, chatId } = checkpoint;
    checkIds('putCheckpoint', checkpointId, chatId, ...Object.keys(checkpoint.threads ?? {}));
    const createdMs = checkpointTime(checkpoint);
    const body = JSON.stringify(checkpoint);
    if (!(await this.saveCheckpoint({ checkpointId, chatId, createdMs, body })))
      throw checkpointExists(checkpointId);
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    const all = (await this.loadCheckpoints(chatId)).map((text) => JSON.parse(text) as Checkpoint);
    // Stable: checkpoints with the same createdAt keep their insertion order.
    return all.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    checkIds('getCheckpoint', checkpointId);
    const text = await this.loadCheckpoint(checkpointId);
    return text === null ? null : (JSON.parse(text) as Checkpoint);
  }
}
