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
import {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkpointTime,
  checkReset,
  resolveRange,
  serializeItem,
  threadNotFound,
} from './common.js';
import {
  MAX_SEGMENT,
  migrate,
  prepareStatements,
  SEGMENT_SPAN,
  type Statements,
} from './sqliteSchema.js';
import type {
  AppendBatchEntry,
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';
import { checkIds } from './ids.js';
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
export class SqliteStore implements ThreadStore {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #sql: Statements;
  readonly #path: string;
  /** Leases shared by every process that opens this database file. */
  readonly leases: SqliteLeases;

  constructor(options: SqliteStoreOptions) {
    const opts = { ...DEFAULTS, ...options };
    this.#path = opts.path;
    try {
      if (opts.path !== ':memory:')
        fs.mkdirSync(path.dirname(path.resolve(opts.path)), { recursive: true });
      this.#db = new Database(opts.path, { timeout: opts.busyTimeoutMs });
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma(`synchronous = ${opts.synchronous}`);
      migrate(this.#db, opts.path);
      this.#sql = prepareStatements(this.#db);
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

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkIds('getThread', threadId);
    return this.#run('getThread', () => {
      const loaded = this.#load(threadId);
      return loaded ? toRecord(loaded) : null;
    });
  }

  async readItems(threadId: string, range?: ReadRange): Promise<ThreadItem[]> {
    checkIds('readItems', threadId);
    return this.#run('readItems', () =>
      this.#db.transaction(() => {
        const loaded = this.#load(threadId);
        const { start, end } = resolveRange(threadId, loaded?.version ?? 0, range);
        if (!loaded || start >= end) return [];
        return readVisible(this.#sql, this.#path, loaded, start, end);
      })(),
    );
  }

  async append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    checkIds('append', threadId, options.chatId);
    const bodies = items.map((item) => serializeItem(threadId, item));
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
    return this.#db.transaction(() => this.#appendIn(threadId, bodies, options)).immediate();
  }

  /** Every entry in one IMMEDIATE transaction: one commit for a whole agency call's threads. */
  async appendMany(batch: readonly AppendBatchEntry[]): Promise<number[]> {
    for (const { threadId, options } of batch) checkIds('appendMany', threadId, options.chatId);
    const entries = batch.map(({ threadId, items, options, metadata }) => ({
      threadId,
      options,
      bodies: items.map((item) => serializeItem(threadId, item)),
      metadata: metadata === undefined ? undefined : JSON.stringify(metadata),
    }));
    return this.#write('appendMany', () =>
      this.#db
        .transaction(() =>
          entries.map(({ threadId, bodies, options, metadata }) => {
            const version = this.#appendIn(threadId, bodies, options);
            if (metadata !== undefined) this.#setMetadataIn(threadId, metadata, options.chatId);
            return version;
          }),
        )
        .immediate(),
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

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    const json = JSON.stringify(metadata);
    this.#write('setMetadata', () =>
      this.#db.transaction(() => this.#setMetadataIn(threadId, json, chatId)).immediate(),
    );
  }

  /** Replaces a thread's metadata (JSON text), creating the thread; inside the caller's transaction. */
  #setMetadataIn(threadId: string, json: string, chatId: string | null | undefined): void {
    const now = Date.now();
    if (this.#sql.setMetadata.run(json, now, threadId).changes === 0)
      this.#createThread(threadId, chatId ?? null, json, now);
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    checkIds('listThreads', filter.chatId);
    return this.#run('listThreads', () =>
      this.#db.transaction(() => {
        const rows =
          filter.chatId === undefined
            ? this.#sql.threadsAll.all()
            : this.#sql.threadsByChat.all(filter.chatId);
        return rows.map((row) => toRecord(completeRow(this.#sql, this.#path, row)));
      })(),
    );
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    checkIds('fork', sourceId, targetId, options.chatId);
    const metadata = options.metadata === undefined ? undefined : JSON.stringify(options.metadata);
    return this.#write('fork', () =>
      this.#db
        .transaction(() => {
          const source = this.#load(sourceId);
          if (!source) throw threadNotFound(`fork("${sourceId}" → "${targetId}")`, sourceId);
          const upTo = options.upTo ?? source.version;
          checkFork(
            sourceId,
            targetId,
            upTo,
            source.version,
            this.#sql.thread.get(targetId) !== undefined,
          );
          const segment = this.#newSegment(upTo === 0 ? null : source.row.segment_id, upTo);
          const chatId = options.chatId !== undefined ? options.chatId : source.row.chat_id;
          const now = Date.now();
          this.#sql.insertThread.run(
            targetId,
            chatId,
            segment,
            metadata ?? source.row.metadata,
            sourceId,
            upTo,
            now,
            now,
          );
          return toRecord(this.#load(targetId)!);
        })
        .immediate(),
    );
  }

  async reset(threadId: string, version: number): Promise<string | null> {
    checkIds('reset', threadId);
    return this.#write('reset', () =>
      this.#db
        .transaction(() => {
          const loaded = this.#load(threadId);
          if (!loaded) throw threadNotFound(`reset("${threadId}")`, threadId);
          checkReset(threadId, version, loaded.version);
          if (version === loaded.version) return null;
          const { row } = loaded;
          const archiveId = archiveThreadId(threadId);
          const now = Date.now();
          this.#sql.insertThread.run(
            archiveId,
            row.chat_id,
            row.segment_id,
            row.metadata,
            threadId,
            loaded.version,
            now,
            now,
          );
          this.#sql.setSegment.run(
            this.#newSegment(version === 0 ? null : row.segment_id, version),
            now,
            threadId,
          );
          return archiveId;
        })
        .immediate(),
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    checkIds('deleteThread', threadId);
    this.#write('deleteThread', () =>
      this.#db
        .transaction(() => {
          const row = this.#sql.thread.get(threadId);
          if (!row) return;
          this.#sql.deleteThread.run(threadId);
          this.#collect(row.segment_id);
        })
        .immediate(),
    );
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    checkIds(
      'putCheckpoint',
      checkpoint.checkpointId,
      checkpoint.chatId,
      ...Object.keys(checkpoint.threads ?? {}),
    );
    const ms = checkpointTime(checkpoint);
    const body = JSON.stringify(checkpoint);
    this.#write('putCheckpoint', () =>
      this.#db
        .transaction(() => {
          if (this.#sql.checkpoint.get(checkpoint.checkpointId))
            throw checkpointExists(checkpoint.checkpointId);
          this.#sql.insertCheckpoint.run(checkpoint.checkpointId, checkpoint.chatId, ms, body);
        })
        .immediate(),
    );
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    return this.#run('listCheckpoints', () =>
      this.#sql.checkpointsByChat.all(chatId).map((r) => JSON.parse(r.body) as Checkpoint),
    );
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    checkIds('getCheckpoint', checkpointId);
    return this.#run('getCheckpoint', () => {
      const row = this.#sql.checkpoint.get(checkpointId);
      return row ? (JSON.parse(row.body) as Checkpoint) : null;
    });
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

  /** {@link #run} for a write: with active lease fences, checked in the write's transaction. */
  #write<T>(operation: string, fn: () => T): T {
    const fences = activeFences();
    if (fences.length === 0) return this.#run(operation, fn);
    const fenced = () => (this.leases.checkFences(operation, fences), fn());
    return this.#run(operation, () => this.#db.transaction(fenced).immediate());
  }

  #run<T>(operation: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw sqliteError(this.#path, operation, error);
    }
  }
}
