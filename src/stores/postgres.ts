/**
 * A {@link ThreadStore} on PostgreSQL (`pg`). Appends run in one transaction with their version
 * check; forks and rollbacks are O(1) (segments point at their parent instead of copying items); a
 * newest-N read walks only the segments it needs. The schema is created on first use by the
 * ordered migrations in `postgresMigrations.ts`, under an advisory lock.
 * @module
 */
import { randomUUID } from 'node:crypto';
import pg from './pgDriver.js';
import { ConfigError, ConflictError } from '../errors.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import type { StoreCapabilities } from './capabilities.js';
import type { ThreadItem } from './item.js';
import type { CheckpointEntry } from './storeRequests.js';
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
import type { AppendOptions, ReadRange, ThreadRecord } from './types.js';
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
export class PostgresStore extends BaseStore {
  readonly kind = 'postgres';
  readonly capabilities: StoreCapabilities = {
    leases: true,
    appendMany: false,
    traces: true,
    crossProcess: true,
  };
  readonly #db: PostgresConnection;
  readonly #sql: PostgresStatements;
  /** Leases seen by every process using the same database and schema. */
  readonly leases: PostgresLeases;
  /** Traces of the store's runs, in the same schema (`colloquy_traces`, migration 3). */
  readonly traces: PostgresTraceStore;

  constructor(options: PostgresStoreOptions = {}) {
    super();
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

  protected async readRecord(threadId: string): Promise<ThreadRecord | null> {
    const { rows } = await this.#query('getThread', this.#sql.getThread, [threadId]);
    return rows[0] ? threadFromRow(rows[0] as ThreadRow) : null;
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    const params = [threadId, range.from ?? 0, range.limit ?? null, range.newest ?? null];
    const { rows } = await this.#query('readItems', this.#sql.readItems, params);
    return rows.map((r: { item: string }) => JSON.parse(r.item) as ThreadItem);
  }

  protected async appendItems(
    threadId: string,
    serialized: string[],
    options: AppendOptions,
  ): Promise<number> {
    const expected = options.expectedVersion;
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

  protected async writeMetadata(
    threadId: string,
    json: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    await this.#transaction('setMetadata', async (db) => {
      const at = now();
      if ((await this.#createThread(db, threadId, chatId ?? null, json, 0, at)) !== null) return;
      await db.query(this.#sql.setMetadata, [threadId, json, at]);
    });
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    const { rows } = await this.#query('listThreads', this.#sql.listThreads, [chatId ?? null]);
    return (rows as ThreadRow[]).map(threadFromRow);
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const { sourceId, targetId } = request;
    const sql = this.#sql;
    return this.#transaction('fork', async (db) => {
      // FOR SHARE keeps the source's head segment in place (no rollback or delete) until commit.
      const found = (await db.query(sql.lockForShare, [sourceId])).rows[0] as ThreadRow | undefined;
      const taken = found ? (await db.query(sql.threadExists, [targetId])).rowCount !== 0 : false;
      const upTo = request.check(found?.version ?? null, taken);
      const source = found!;
      const segment = randomUUID();
      const chatId = request.chatId === undefined ? source.chat_id : request.chatId;
      const metadata = request.metadata ?? source.metadata;
      const inserted = await db.query(sql.insertForked, [
        targetId,
        chatId,
        upTo,
        metadata,
        sourceId,
        segment,
        now(),
      ]);
      if (inserted.rowCount === 0) request.check(source.version, true);
      await this.#newSegment(db, segment, upTo > 0 ? source.segment_id : null, upTo);
      return threadFromRow(inserted.rows[0] as ThreadRow);
    });
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version, archiveId } = request;
    const sql = this.#sql;
    return this.#transaction('rollback', async (db) => {
      const found = (await db.query(sql.lockForUpdate, [threadId])).rows[0] as
        ThreadRow | undefined;
      if (!request.check(found?.version ?? null)) return null;
      const thread = found!;
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

  protected async removeThread(threadId: string): Promise<void> {
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

  protected override async saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    const params = [entry.checkpointId, entry.chatId, entry.body];
    const result =
      activeFences().length === 0
        ? await this.#query('putCheckpoint', this.#sql.putCheckpoint, params)
        : await this.#transaction('putCheckpoint', (db) =>
            db.query(this.#sql.putCheckpoint, params),
          );
    return result.rowCount !== 0;
  }

  /** Rows come in put order; the base's stable sort keeps that order for equal timestamps. */
  protected override async loadCheckpoints(chatId: string): Promise<string[]> {
    const { rows } = await this.#query('listCheckpoints', this.#sql.listCheckpoints, [chatId]);
    return rows.map((r: { body: string }) => r.body);
  }

  protected override async loadCheckpoint(checkpointId: string): Promise<string | null> {
    const { rows } = await this.#query('getCheckpoint', this.#sql.getCheckpoint, [checkpointId]);
    return rows[0] ? (rows[0] as { body: string }).body : null;
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
