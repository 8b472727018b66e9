/**
 * Traces in SQLite, in the same file as the threads (tables `traces` and `spans`, with their own
 * schema version in `colloquy_trace_schema` so that the thread store's migrations stay its own).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import {
  boundTrace,
  resolveRetention,
  retentionCutoff,
  type TraceRetention,
} from './traceBounds.js';
import {
  parseStoredTrace,
  traceLimit,
  TRACE_SCHEMA_VERSION,
  type StoredTrace,
  type TraceFilter,
  type TraceStore,
  type TraceSummary,
} from './traceStore.js';

/**
 * Trace schema changelog — never edit a released entry, append a new one.
 * 1: traces (summary columns + the whole trace as JSON), indexed by chat, run and start time.
 */
export const TRACE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE traces (
     trace_id TEXT PRIMARY KEY,
     chat_id TEXT,
     run_id TEXT,
     started_at TEXT NOT NULL,
     summary TEXT NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX traces_by_chat ON traces(chat_id, started_at);
   CREATE INDEX traces_by_run ON traces(run_id, started_at);
   CREATE INDEX traces_by_start ON traces(started_at);`,
];

/** Options of {@link SqliteTraceStore}. */
export interface SqliteTraceStoreOptions {
  /** The database file (the thread store's). */
  path: string;
  /** Open an existing file only; never create it or its folder (default false). */
  mustExist?: boolean;
  /**
   * An open connection to `path` to use instead of opening another (the thread store's): one
   * connection keeps its page cache warm and commits without waiting on a second writer. `close`
   * leaves a given connection open.
   * @internal
   */
  database?: Database.Database;
  /** How long traces are kept (default: 30 days and the newest 10,000; see `traceBounds.ts`). */
  retention?: TraceRetention;
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS colloquy_trace_schema (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM colloquy_trace_schema').get() as
    { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > TRACE_MIGRATIONS.length) {
    throw new StoreError(
      `The trace tables are at schema ${current}, newer than this Colloquy knows (${TRACE_MIGRATIONS.length}). Upgrade Colloquy.`,
    );
  }
  db.transaction(() => {
    for (let version = current; version < TRACE_MIGRATIONS.length; version += 1)
      db.exec(TRACE_MIGRATIONS[version]!);
    db.prepare('DELETE FROM colloquy_trace_schema').run();
    db.prepare('INSERT INTO colloquy_trace_schema (version) VALUES (?)').run(
      TRACE_MIGRATIONS.length,
    );
  })();
}

/**
 * A {@link TraceStore} in a SQLite file.
 *
 * @example
 * ```ts
 * const traces = new SqliteTraceStore({ path: '.colloquy/colloquy.db' });
 * const [latest] = await traces.listTraces({ chatId: 'support-42', limit: 1 });
 * ```
 */
export class SqliteTraceStore implements TraceStore {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #path: string;
  readonly #ownsDb: boolean;
  #insert: Database.Statement | undefined;
  readonly #retention: Required<TraceRetention>;

  constructor(options: SqliteTraceStoreOptions) {
    this.#path = options.path;
    this.#retention = resolveRetention('SqliteTraceStore', options.retention);
    this.#ownsDb = options.database === undefined;
    if (options.database) {
      this.#db = options.database;
      try {
        migrate(this.#db);
      } catch (error) {
        throw new StoreError(
          `Could not create the trace tables in ${options.path}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      return;
    }
    try {
      if (options.mustExist && options.path !== ':memory:' && !fs.existsSync(options.path)) {
        throw new StoreError(
          `There is no database at ${path.resolve(options.path)}. Check the sqlite: path (or --store); nothing was created.`,
        );
      }
      if (options.path !== ':memory:')
        fs.mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
      this.#db = new Database(options.path, {
        timeout: 5000,
        fileMustExist: options.mustExist ?? false,
      });
      this.#db.pragma('journal_mode = WAL');
      migrate(this.#db);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(
        `Could not open the trace tables in ${options.path}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  async saveTrace(stored: StoredTrace): Promise<void> {
    const bounded = boundTrace(parseStoredTrace(stored));
    const { trace } = bounded;
    const save = () => {
      (this.#insert ??= this.#db.prepare(
        `INSERT OR REPLACE INTO traces (trace_id, chat_id, run_id, started_at, summary, body)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )).run(
        trace.traceId,
        trace.chatId ?? null,
        trace.runId ?? null,
        trace.startedAt,
        JSON.stringify(trace),
        JSON.stringify({
          ...bounded,
          schemaVersion: bounded.schemaVersion ?? TRACE_SCHEMA_VERSION,
        }),
      );
      this.#prune();
    };
    this.#run('saveTrace', () => this.#db.transaction(save)());
  }

  /** Retention, in the save's transaction: traces past the age limit, then beyond the count. */
  #prune(): void {
    const cutoff = retentionCutoff(this.#retention);
    if (cutoff !== undefined)
      this.#db.prepare('DELETE FROM traces WHERE started_at < ?').run(cutoff);
    const max = this.#retention.maxTraces;
    if (max === 0) return;
    const { n } = this.#db.prepare('SELECT COUNT(*) AS n FROM traces').get() as { n: number };
    if (n <= max) return;
    this.#db
      .prepare(
        `DELETE FROM traces WHERE trace_id IN (SELECT trace_id FROM traces
         ORDER BY started_at DESC, trace_id DESC LIMIT -1 OFFSET ?)`,
      )
      .run(max);
  }

  async listTraces(filter: TraceFilter = {}): Promise<TraceSummary[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.chatId !== undefined) {
      where.push('chat_id = ?');
      args.push(filter.chatId);
    }
    if (filter.runId !== undefined) {
      where.push('run_id = ?');
      args.push(filter.runId);
    }
    const sql =
      `SELECT summary FROM traces ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ` +
      'ORDER BY started_at DESC, trace_id DESC LIMIT ?';
    const rows = this.#run(
      'listTraces',
      () => this.#db.prepare(sql).all(...args, traceLimit(filter)) as Array<{ summary: string }>,
    );
    return rows.map((row) => JSON.parse(row.summary) as TraceSummary);
  }

  async getTrace(traceId: string): Promise<StoredTrace | null> {
    const row = this.#run(
      'getTrace',
      () =>
        this.#db.prepare('SELECT body FROM traces WHERE trace_id = ?').get(traceId) as
          { body: string } | undefined,
    );
    return row ? parseStoredTrace(JSON.parse(row.body)) : null;
  }

  async deleteTraces(filter: { chatId: string }): Promise<number> {
    return this.#run(
      'deleteTraces',
      () => this.#db.prepare('DELETE FROM traces WHERE chat_id = ?').run(filter.chatId).changes,
    );
  }

  async close(): Promise<void> {
    if (this.#ownsDb && this.#db.open) this.#db.close();
  }

  #run<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw new StoreError(
        `SQLite trace store ${operation} failed on ${this.#path}: ${(error as Error).message}`,
        { cause: error, transient: (error as { code?: string }).code === 'SQLITE_BUSY' },
      );
    }
  }
}
