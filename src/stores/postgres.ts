/**
 * A {@link ThreadStore} on PostgreSQL (`pg`). Appends run in one transaction with their version
 * check; forks and resets are O(1) (segments point at their parent instead of copying items); a
 * newest-N read walks only the segments it needs. The schema is created on first use by the
 * ordered migrations in `postgresMigrations.ts`, under an advisory lock.
 * @module
 */
import { randomUUID } from 'node:crypto';
import pg from './pgDriver.js';
import { ConfigError, ConflictError } from '../errors.js';
import type { ThreadItem } from './item.js';
import {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkReset,
  resolveRange,
  threadNotFound,
} from './common.js';
import { PostgresLeases } from './postgresLeases.js';
import { operationTimeout } from './deadline.js';
import { activeFences } from './fence.js';
import { PostgresConnection } from './postgresConnection.js';
import {
  postgresStatements,
  threadFromRow,
  type PostgresStatements,
  type ThreadRow,
} from './postgresSql.js';
import type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';
import { checkIds } from './ids.js';
import { PostgresTraceStore } from './postgresTraces.js';
import type { TraceRetention } from './traceBounds.js';
import { linkTraceStore } from './traceStores.js';

/** Options of {@link PostgresStore}. Every field is optional. */
export interface PostgresStoreOptions {
  /** e.g. `postgres://user@127.0.0.1:5432/db` (default: the `PG*` environment variables). */
  connectionString?: string;
  /** A pool to use instead of opening one; the store never ends it: the caller owns it. */
  pool?: pg.Pool;
  /** Schema holding the store's tables (default `public`); created if missing. */
  schema?: string;
  /**
   * How long one operation may wait for Postgres before it fails with a transient `StoreError`
   * (default 10000 ms; 0: no limit). A frozen or unreachable server then fails calls in time.
   */
  operationTimeoutMs?: number;
  /** How long traces are kept (default: 30 days and the newest 10,000; 0 turns a limit off). */
  traces?: TraceRetention;
}

/**
 * Threads in PostgreSQL 12+. Serialization failures, deadlocks and connection errors surface as
 * `StoreError` with `transient: true`; wrap the store with `withRetry()` to retry them.
 *
 * @example
 * ```ts
 * const store = new PostgresStore({ connectionString: 'postgres://app@127.0.0.1:5432/app', schema: 'colloquy' });
 * await store.append('main', [{ id: 'm1', item: { role: 'user', content: 'hi' } }], { expectedVersion: 0 });
 * const fork = await store.fork('main', 'what-if');
 * await store.close();
 * ```
 */
export class PostgresStore implements ThreadStore {
  readonly kind = 'postgres';
  readonly #db: PostgresConnection;
  readonly #sql: PostgresStatements;
  /** Leases seen by every process using the same database and schema. */
  readonly leases: PostgresLeases;
  /** Traces of the store's runs, in the same schema (`colloquy_traces`, migration 3). */
  readonly traces: PostgresTraceStore;

  constructor(options: PostgresStoreOptions = {}) {
    const schema = options.schema ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError(
        `PostgresStore: schema "${schema}" is not a plain identifier. Use letters, digits and underscores (at most 63), starting with a letter.`,
      );
    }
    this.#sql = postgresStatements(schema);
    this.#db = new PostgresConnection({
      ...(options.connectionString !== undefined
        ? { connectionString: options.connectionString }
        : {}),
      ...(options.pool ? { pool: options.pool } : {}),
      schema,
      timeoutMs: operationTimeout('PostgresStore', options.operationTimeoutMs),
    });
    const run = (operation: string, sql: string, params: unknown[]) =>
      this.#db.query(operation, sql, params);
    this.leases = new PostgresLeases(schema, run);
    this.traces = new PostgresTraceStore(schema, run, options.traces);
    linkTraceStore(this, this.traces);
  }

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkIds('getThread', threadId);
    const { rows } = await this.#query('getThread', this.#sql.getThread, [threadId]);
    return rows[0] ? threadFromRow(rows[0] as ThreadRow) : null;
  }

  async readItems(threadId: string, range: ReadRange = {}): Promise<ThreadItem[]> {
    checkIds('readItems', threadId);
    resolveRange(threadId, 0, range); // validates the range (throws ConfigError); the query applies it
    const params = [threadId, range.from ?? 0, range.limit ?? null, range.newest ?? null];
    const { rows } = await this.#query('readItems', this.#sql.readItems, params);
    return rows.map((r: { item: string }) => JSON.parse(r.item) as ThreadItem);
  }

  async append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    checkIds('append', threadId, options.chatId);
    const expected = options.expectedVersion;
    const serialized = items.map((i) => JSON.stringify(i));
    const sql = this.#sql;
    return this.#transaction('append', async (db) => {
      const at = now();
      for (let attempt = 0; ; attempt++) {
        const bumped = await db.query(sql.bumpVersion, [threadId, expected, serialized.length, at]);
        let segment = (bumped.rows[0] as { segment_id: string } | undefined)?.segment_id ?? null;
        if (!segment && expected === 0) {
          segment = await this.#createThread(
            db,
            threadId,
            options.chatId ?? null,
            '{}',
            serialized.length,
            at,
          );
        }
        if (!segment) {
          const current = await db.query(sql.threadVersion, [threadId]);
          const actual = (current.rows[0] as { version: number } | undefined)?.version ?? 0;
          // A writer that created the thread concurrently at version 0 is no conflict: try again.
          if (actual === expected && attempt < 3) continue;
          throw new ConflictError(threadId, expected, actual);
        }
        if (serialized.length > 0) await db.query(sql.insertItems, [segment, expected, serialized]);
        return expected + serialized.length;
      }
    });
  }

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    const json = JSON.stringify(metadata);
    await this.#transaction('setMetadata', async (db) => {
      const at = now();
      if ((await this.#createThread(db, threadId, chatId ?? null, json, 0, at)) !== null) return;
      await db.query(this.#sql.setMetadata, [threadId, json, at]);
    });
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    checkIds('listThreads', filter.chatId);
    const { rows } = await this.#query('listThreads', this.#sql.listThreads, [
      filter.chatId ?? null,
    ]);
    return (rows as ThreadRow[]).map(threadFromRow);
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    checkIds('fork', sourceId, targetId, options.chatId);
    const sql = this.#sql;
    return this.#transaction('fork', async (db) => {
      // FOR SHARE keeps the source's head segment in place (no reset or delete) until commit.
      const source = (await db.query(sql.lockForShare, [sourceId])).rows[0] as
        ThreadRow | undefined;
      if (!source) throw threadNotFound(`fork("${sourceId}" → "${targetId}")`, sourceId);
      const upTo = options.upTo ?? source.version;
      const taken = await db.query(sql.threadExists, [targetId]);
      checkFork(sourceId, targetId, upTo, source.version, taken.rowCount !== 0);
      const segment = randomUUID();
      const chatId = options.chatId === undefined ? source.chat_id : options.chatId;
      const metadata =
        options.metadata === undefined ? source.metadata : JSON.stringify(options.metadata);
      const inserted = await db.query(sql.insertForked, [
        targetId,
        chatId,
        upTo,
        metadata,
        sourceId,
        segment,
        now(),
      ]);
      if (inserted.rowCount === 0) checkFork(sourceId, targetId, upTo, source.version, true);
      await this.#newSegment(db, segment, upTo > 0 ? source.segment_id : null, upTo);
      return threadFromRow(inserted.rows[0] as ThreadRow);
    });
  }

  async reset(threadId: string, version: number): Promise<string | null> {
    checkIds('reset', threadId);
    const sql = this.#sql;
    return this.#transaction('reset', async (db) => {
      const thread = (await db.query(sql.lockForUpdate, [threadId])).rows[0] as
        ThreadRow | undefined;
      if (!thread) throw threadNotFound(`reset("${threadId}")`, threadId);
      checkReset(threadId, version, thread.version);
      if (version === thread.version) return null;
      const archiveId = archiveThreadId(threadId);
      const at = now();
      // The archive takes over the head segment (the whole history); the thread starts a new one.
      const { chat_id, metadata, segment_id } = thread;
      await db.query(sql.insertForked, [
        archiveId,
        chat_id,
        thread.version,
        metadata,
        threadId,
        segment_id,
        at,
      ]);
      const segment = randomUUID();
      await this.#newSegment(db, segment, version > 0 ? segment_id : null, version);
      await db.query(sql.moveHead, [threadId, segment, version, at]);
      return archiveId;
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    checkIds('deleteThread', threadId);
    const sql = this.#sql;
    await this.#transaction('deleteThread', async (db) => {
      const { rows } = await db.query(sql.deleteThread, [threadId]);
      let segment = (rows[0] as { segment_id: string } | undefined)?.segment_id ?? null;
      if (segment) await db.query(sql.disownSegment, [segment]);
      // Free segments from the head down while no fork and no other thread reads them.
      while (segment) {
        const row = (await db.query(sql.lockSegment, [segment])).rows[0] as
          { parent_segment: string | null; children: number; owned: boolean } | undefined;
        if (!row || row.children > 0 || row.owned) break;
        await db.query(sql.deleteSegmentItems, [segment]);
        await db.query(sql.deleteSegment, [segment]);
        if (row.parent_segment) await db.query(sql.releaseSegment, [row.parent_segment]);
        segment = row.parent_segment;
      }
    });
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    checkIds(
      'putCheckpoint',
      checkpoint.checkpointId,
      checkpoint.chatId,
      ...Object.keys(checkpoint.threads ?? {}),
    );
    const params = [checkpoint.checkpointId, checkpoint.chatId, JSON.stringify(checkpoint)];
    const result =
      activeFences().length === 0
        ? await this.#query('putCheckpoint', this.#sql.putCheckpoint, params)
        : await this.#transaction('putCheckpoint', (db) =>
            db.query(this.#sql.putCheckpoint, params),
          );
    if (result.rowCount === 0) throw checkpointExists(checkpoint.checkpointId);
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    const { rows } = await this.#query('listCheckpoints', this.#sql.listCheckpoints, [chatId]);
    const all = rows.map((r: { body: string }) => JSON.parse(r.body) as Checkpoint);
    // Rows come in put order; the stable sort keeps that order for equal timestamps.
    return all.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    checkIds('getCheckpoint', checkpointId);
    const { rows } = await this.#query('getCheckpoint', this.#sql.getCheckpoint, [checkpointId]);
    return rows[0] ? (JSON.parse((rows[0] as { body: string }).body) as Checkpoint) : null;
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  /** Inserts a thread at `version` with a fresh root segment; `null` when the id is taken. */
  async #createThread(
    db: pg.PoolClient,
    threadId: string,
    chatId: string | null,
    metadata: string,
    version: number,
    at: string,
  ): Promise<string | null> {
    const segment = randomUUID();
    const inserted = await db.query(this.#sql.createThread, [
      threadId,
      chatId,
      version,
      metadata,
      segment,
      at,
    ]);
    if (inserted.rowCount === 0) return null;
    await this.#newSegment(db, segment, null, 0);
    return segment;
  }

  async #newSegment(
    db: pg.PoolClient,
    segment: string,
    parent: string | null,
    base: number,
  ): Promise<void> {
    await db.query(this.#sql.insertSegment, [segment, parent, base]);
    if (parent) await db.query(this.#sql.adoptSegment, [parent]);
  }

  #query(operation: string, sql: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.#db.query(operation, sql, params);
  }

  /** A write's transaction; the active lease fences are checked (and locked) first in it. */
  #transaction<T>(operation: string, work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const fences = activeFences();
    if (fences.length === 0) return this.#db.transaction(operation, work);
    return this.#db.transaction(operation, async (db) => {
      await this.leases.checkFences(db, `PostgresStore: ${operation}`, fences);
      return work(db);
    });
  }
}

function now(): string {
  return new Date().toISOString();
}
