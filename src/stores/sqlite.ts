/**
 * A durable {@link ThreadStore} in one SQLite file (better-sqlite3, WAL). Forks and resets are
 * O(1) and copy no items; see `sqliteSchema.ts` for the segment layout.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConflictError, StoreError } from '../errors.js';
import type { ThreadItem } from './item.js';
import { activeFences } from './fence.js';
import { sqliteError } from './sqliteErrors.js';
import { SqliteLeases } from './sqliteLeases.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import type { StoreCapabilities } from './capabilities.js';
import { rangeSpan } from './common.js';
import type { BatchEntry, CheckpointEntry } from './storeRequests.js';
import {
  MAX_SEGMENT,
  migrate,
  prepareStatements,
  SEGMENT_SPAN,
  type Statements,
} from './sqliteSchema.js';
import type { AppendBatchEntry, AppendOptions, ReadRange, ThreadRecord } from './types.js';
import { completeRow, readVisible, toRecord, type Loaded } from './sqliteRows.js';

/** Options of {@link SqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file; parent directories are created. `:memory:` gives a private in-memory database. */
  path: string;
  /** How long a write waits for another process's lock before failing with a transient error (default 5000). */
  busyTimeoutMs?: number;
  /**
   * `NORMAL` (default) survives a process crash, as WAL replays every committed append; `FULL`
   * also survives power loss at the cost of an fsync per append.
   */
  synchronous?: 'NORMAL' | 'FULL';
}

const DEFAULTS = { busyTimeoutMs: 5000, synchronous: 'NORMAL' } as const;

/**
 * Thread store backed by a single SQLite file in WAL mode; one transaction per operation.
 *
 * @example
 * ```ts
 * const store = new SqliteStore({ path: '.colloquy/threads.db' });
 * await store.append('main', [{ id: 'm1', item: { role: 'user', content: 'hi' } }], { expectedVersion: 0 });
 * const items = await store.readItems('main', { newest: 50 });
 * await store.close();
 * ```
 */
export class SqliteStore extends BaseStore {
  readonly kind = 'sqlite';
  /** Leases and version checks hold across the processes of one host; traces share the file. */
  readonly capabilities: StoreCapabilities;
  readonly #db: Database.Database;
  readonly #sql: Statements;
  readonly #path: string;
  /**
   * Runs its argument in one IMMEDIATE transaction, made once per connection (better-sqlite3
   * builds four wrapper functions per `transaction()` call). Inside another transaction it
   * becomes a savepoint: write bodies use {@link SqliteStore.#atomic} instead.
   */
  readonly #immediate: <T>(body: () => T) => T;
  /** The same as a DEFERRED transaction: one consistent snapshot for a multi-statement read. */
  readonly #snapshot: <T>(body: () => T) => T;
  /** Leases shared by every process that opens this database file. */
  readonly leases: SqliteLeases;

  constructor(options: SqliteStoreOptions) {
    super();
    const opts = { ...DEFAULTS, ...options };
    this.#path = opts.path;
    this.capabilities = {
      leases: true,
      appendMany: true,
      traces: opts.path !== ':memory:',
      crossProcess: false,
    };
    try {
      if (opts.path !== ':memory:')
        fs.mkdirSync(path.dirname(path.resolve(opts.path)), { recursive: true });
      this.#db = new Database(opts.path, { timeout: opts.busyTimeoutMs });
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma(`synchronous = ${opts.synchronous}`);
      migrate(this.#db, opts.path);
      this.#sql = prepareStatements(this.#db);
      const transaction = this.#db.transaction((body: () => unknown) => body());
      this.#immediate = transaction.immediate as <T>(body: () => T) => T;
      this.#snapshot = transaction as <T>(body: () => T) => T;
      this.leases = new SqliteLeases(this.#db, (operation, error) =>
        sqliteError(this.#path, operation, error),
      );
    } catch (error) {
      throw sqliteError(this.#path, `open "${opts.path}"`, error);
    }
  }

  /** The database file (traces are kept in the same file). */
  get path(): string {
    return this.#path;
  }

  /**
   * The open connection, lent to the trace store of the same file (`traceStoreFor`) so that trace
   * saves share its page cache and never wait on a second writer. Not for other use.
   * @internal
   */
  get connection(): Database.Database {
    return this.#db;
  }

  protected async readRecord(threadId: string): Promise<ThreadRecord | null> {
    return this.#run('getThread', () => {
      const loaded = this.#load(threadId);
      return loaded ? toRecord(loaded) : null;
    });
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    return this.#run('readItems', () =>
      this.#snapshot(() => {
        const loaded = this.#load(threadId);
        if (!loaded) return [];
        const { start, end } = rangeSpan(loaded.version, range);
        if (start >= end) return [];
        return readVisible(this.#sql, this.#path, loaded, start, end);
      }),
    );
  }

  protected async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    const v = options.expectedVersion;
    return this.#write('append', () => {
      // Fast path: one statement, atomic on its own, with the version check inside it.
      if (
        bodies.length === 1 &&
        this.#sql.appendOne.run({ id: threadId, v, at: Date.now(), body: bodies[0]! }).changes === 1
      )
        return v + 1;
      return this.#appendSlow(threadId, bodies, options);
    });
  }

  /** New threads, batches and conflicts: version check and inserts in one IMMEDIATE transaction. */
  #appendSlow(threadId: string, bodies: string[], options: AppendOptions): number {
    return this.#atomic(() => this.#appendIn(threadId, bodies, options));
  }

  /** Every entry in one IMMEDIATE transaction: one commit for a whole agency call's threads. */
  appendMany(batch: readonly AppendBatchEntry[]): Promise<number[]> {
    return this.appendManyWith(batch, async (entries: BatchEntry[]) =>
      this.#write('appendMany', () =>
        this.#atomic(() =>
          entries.map(({ threadId, bodies, options, metadata }) => {
            const version = this.#appendIn(threadId, bodies, options);
            if (metadata !== undefined) this.#setMetadataIn(threadId, metadata, options.chatId);
            return version;
          }),
        ),
      ),
    );
  }

  /** The version check and inserts of one append, inside the caller's transaction. */
  #appendIn(threadId: string, bodies: string[], options: AppendOptions): number {
    const head = this.#sql.head.get(threadId);
    const current = !head
      ? 0
      : head.last_key === null
        ? head.parent_length
        : head.last_key - head.segment_id * SEGMENT_SPAN + 1;
    if (current !== options.expectedVersion)
      throw new ConflictError(threadId, options.expectedVersion, current);
    if (bodies.length === 0) return current;
    const now = Date.now();
    const segment = head
      ? head.segment_id
      : this.#createThread(threadId, options.chatId ?? null, '{}', now);
    if (current + bodies.length >= SEGMENT_SPAN)
      throw new StoreError(
        `SqliteStore: thread "${threadId}" would exceed ${SEGMENT_SPAN - 1} items in one segment. Reset or fork it to start a new segment.`,
      );
    const base = segment * SEGMENT_SPAN + current;
    for (let i = 0; i < bodies.length; i++) this.#sql.insertItem.run(base + i, now, bodies[i]!);
    return current + bodies.length;
  }

  protected async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    this.#write('setMetadata', () =>
      this.#atomic(() => this.#setMetadataIn(threadId, metadata, chatId)),
    );
  }

  /** Replaces a thread's metadata (JSON text), creating the thread; inside the caller's transaction. */
  #setMetadataIn(threadId: string, json: string, chatId: string | null | undefined): void {
    const now = Date.now();
    if (this.#sql.setMetadata.run(json, now, threadId).changes === 0)
      this.#createThread(threadId, chatId ?? null, json, now);
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    return this.#run('listThreads', () =>
      this.#snapshot(() => {
        const rows =
          chatId === undefined ? this.#sql.threadsAll.all() : this.#sql.threadsByChat.all(chatId);
        return rows.map((row) => toRecord(completeRow(this.#sql, this.#path, row)));
      }),
    );
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const { sourceId, targetId } = request;
    return this.#write('fork', () =>
      this.#atomic(() => {
        const source = this.#load(sourceId);
        const upTo = request.check(
          source?.version ?? null,
          this.#sql.thread.get(targetId) !== undefined,
        );
        const { row } = source!;
        const segment = this.#newSegment(upTo === 0 ? null : row.segment_id, upTo);
        const chatId = request.chatId !== undefined ? request.chatId : row.chat_id;
        const now = Date.now();
        const metadata = request.metadata ?? row.metadata;
        this.#sql.insertThread.run(targetId, chatId, segment, metadata, sourceId, upTo, now, now);
        return toRecord(this.#load(targetId)!);
      }),
    );
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version, archiveId } = request;
    return this.#write('rollback', () =>
      this.#atomic(() => {
        const loaded = this.#load(threadId);
        if (!request.check(loaded?.version ?? null)) return null;
        const { row } = loaded!;
        const now = Date.now();
        this.#sql.insertThread.run(
          archiveId,
          row.chat_id,
          row.segment_id,
          row.metadata,
          threadId,
          loaded!.version,
          now,
          now,
        );
        this.#sql.setSegment.run(
          this.#newSegment(version === 0 ? null : row.segment_id, version),
          now,
          threadId,
        );
        return archiveId;
      }),
    );
  }

  protected async removeThread(threadId: string): Promise<void> {
    this.#write('deleteThread', () =>
      this.#atomic(() => {
        const row = this.#sql.thread.get(threadId);
        if (!row) return;
        this.#sql.deleteThread.run(threadId);
        this.#collect(row.segment_id);
      }),
    );
  }

  protected override async saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    return this.#write('putCheckpoint', () =>
      this.#atomic(() => {
        if (this.#sql.checkpoint.get(entry.checkpointId)) return false;
        this.#sql.insertCheckpoint.run(
          entry.checkpointId,
          entry.chatId,
          entry.createdMs,
          entry.body,
        );
        return true;
      }),
    );
  }

  protected override async loadCheckpoints(chatId: string): Promise<string[]> {
    return this.#run('listCheckpoints', () =>
      this.#sql.checkpointsByChat.all(chatId).map((r) => r.body),
    );
  }

  protected override async loadCheckpoint(checkpointId: string): Promise<string | null> {
    return this.#run('getCheckpoint', () => this.#sql.checkpoint.get(checkpointId)?.body ?? null);
  }

  async close(): Promise<void> {
    this.#run('close', () => this.#db.close());
  }

  #load(threadId: string): Loaded | null {
    const row = this.#sql.thread.get(threadId);
    return row ? completeRow(this.#sql, this.#path, row) : null;
  }

  #newSegment(parent: number | null, parentLength: number): number {
    const id = Number(this.#sql.insertSegment.run(parent, parentLength).lastInsertRowid);
    if (id > MAX_SEGMENT)
      throw new StoreError(
        `SqliteStore: segment id ${id} exceeds ${MAX_SEGMENT} in "${this.#path}". Start a new database file.`,
      );
    return id;
  }

  #createThread(threadId: string, chatId: string | null, metadata: string, now: number): number {
    const segment = this.#newSegment(null, 0);
    this.#sql.insertThread.run(threadId, chatId, segment, metadata, null, null, now, now);
    return segment;
  }

  /** Frees items no thread can see any more, walking up from a segment that lost its thread. */
  #collect(start: number): void {
    for (let seg: number | null = start; seg !== null;) {
      if (this.#sql.segmentUsed.get(seg)) return;
      const { reach, n } = this.#sql.childReach.get(seg)!;
      if (n > 0) {
        this.#sql.deleteItems.run(seg * SEGMENT_SPAN + (reach ?? 0), (seg + 1) * SEGMENT_SPAN);
        return;
      }
      const info = this.#sql.segment.get(seg);
      this.#sql.deleteItems.run(seg * SEGMENT_SPAN, (seg + 1) * SEGMENT_SPAN);
      this.#sql.deleteSegment.run(seg);
      seg = info?.parent_segment ?? null;
    }
  }

  /**
   * {@link #run} for a write: with active lease fences, checked in the write's transaction, which
   * also releases those of the fences' leases armed to go with it (`LeaseHandle.releaseWithNextWrite`).
   */
  #write<T>(operation: string, fn: () => T): T {
    const fences = activeFences();
    if (fences.length === 0) return this.#run(operation, fn);
    let released: string[] | undefined;
    // Only a transaction of its own commits when it ends (inside another it is a savepoint).
    const own = !this.#db.inTransaction;
    const result = this.#run(operation, () =>
      this.#immediate(() => {
        released = this.leases.checkFencesAndRelease(operation, fences, own);
        return fn();
      }),
    );
    if (released) this.leases.committed(released);
    return result;
  }

  /** Runs a write body in an IMMEDIATE transaction, or in the caller's when one is open (no savepoint). */
  #atomic<T>(body: () => T): T {
    return this.#db.inTransaction ? body() : this.#immediate(body);
  }

  #run<T>(operation: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw sqliteError(this.#path, operation, error);
    }
  }
}
