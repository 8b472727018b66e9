/**
 * Traces in the `colloquy_traces` table of a Postgres store's schema (migration 3), so that a
 * Postgres deployment keeps its traces next to its threads. Statements run through the store's
 * connection (migrated first, within its deadline); the store's `traces` field is this store, and
 * `traceStoreFor(postgresStore)` returns it.
 * @module
 */
import {
  boundTrace,
  resolveRetention,
  retentionCutoff,
  type TraceRetention,
} from './traceBounds.js';
import {
  parseStoredTrace,
  traceLimit,
  type StoredTrace,
  type TraceFilter,
  type TraceStore,
  type TraceSummary,
} from './traceStore.js';

/** Runs one statement through the store (which migrates first and wraps failures). */
export type RunTraceQuery = (
  operation: string,
  sql: string,
  params: unknown[],
) => Promise<{ rows: unknown[]; rowCount: number | null }>;

function statements(schema: string) {
  const table = `"${schema}".colloquy_traces`;
  return {
    save: `INSERT INTO ${table} (trace_id, chat_id, run_id, started_at, summary, body)
      VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (trace_id) DO UPDATE SET chat_id = EXCLUDED.chat_id, run_id = EXCLUDED.run_id,
        started_at = EXCLUDED.started_at, summary = EXCLUDED.summary, body = EXCLUDED.body`,
    // $1 chat (or null: any), $2 run (or null: any), $3 limit.
    list: `SELECT summary FROM ${table}
      WHERE ($1::text IS NULL OR chat_id = $1) AND ($2::text IS NULL OR run_id = $2)
      ORDER BY started_at DESC, trace_id DESC LIMIT $3`,
    get: `SELECT body FROM ${table} WHERE trace_id = $1`,
    deleteByChat: `DELETE FROM ${table} WHERE chat_id = $1`,
    // Retention: $1 the oldest start kept (or null), $2 the most traces kept (or null).
    prune: `DELETE FROM ${table} WHERE ($1::text IS NOT NULL AND started_at < $1)
      OR ($2::int IS NOT NULL AND trace_id IN (SELECT trace_id FROM ${table}
        ORDER BY started_at DESC, trace_id DESC OFFSET $2))`,
  };
}

/**
 * A {@link TraceStore} in a Postgres schema. Normally made by `PostgresStore` (its `traces`);
 * it shares the store's pool, so `close()` is a no-op: close the thread store.
 *
 * @example
 * ```ts
 * const store = new PostgresStore({ connectionString, schema: 'colloquy' });
 * const [latest] = await store.traces.listTraces({ chatId: 'support-42', limit: 1 });
 * ```
 */
export class PostgresTraceStore implements TraceStore {
  readonly kind = 'postgres';
  readonly #run: RunTraceQuery;
  readonly #sql: ReturnType<typeof statements>;

  readonly #retention: Required<TraceRetention>;
  #saves = 0;

  /**
   * `schema` must be a validated identifier; `run` is the store's statement runner; `retention`
   * defaults to 30 days and the newest 10,000 traces (see `traceBounds.ts`).
   */
  constructor(schema: string, run: RunTraceQuery, retention?: TraceRetention) {
    this.#run = run;
    this.#sql = statements(schema);
    this.#retention = resolveRetention('PostgresStore', retention);
  }

  /**
   * Saves the trace, then applies retention: on every save for caps up to 100 traces, else every
   * (cap / 100)-th save, so a store holds at most about 1% more than `maxTraces` for a moment.
   */
  async saveTrace(stored: StoredTrace): Promise<void> {
    await this.#save(stored);
    const { maxAgeMs, maxTraces } = this.#retention;
    const every = Math.max(1, Math.min(100, Math.floor(maxTraces / 100)));
    if ((maxAgeMs === 0 && maxTraces === 0) || this.#saves++ % every !== 0) return;
    await this.#run('saveTrace (retention)', this.#sql.prune, [
      retentionCutoff(this.#retention) ?? null,
      maxTraces === 0 ? null : maxTraces,
    ]);
  }

  async #save(stored: StoredTrace): Promise<void> {
    const body = boundTrace(parseStoredTrace(stored));
    const { trace } = body;
    await this.#run('saveTrace', this.#sql.save, [
      trace.traceId,
      trace.chatId ?? null,
      trace.runId ?? null,
      trace.startedAt,
      JSON.stringify(trace),
      JSON.stringify(body),
    ]);
  }

  async listTraces(filter: TraceFilter = {}): Promise<TraceSummary[]> {
    const { rows } = await this.#run('listTraces', this.#sql.list, [
      filter.chatId ?? null,
      filter.runId ?? null,
      traceLimit(filter),
    ]);
    return (rows as Array<{ summary: string }>).map(
      (row) => JSON.parse(row.summary) as TraceSummary,
    );
  }

  async getTrace(traceId: string): Promise<StoredTrace | null> {
    const { rows } = await this.#run('getTrace', this.#sql.get, [traceId]);
    const row = rows[0] as { body: string } | undefined;
    return row ? parseStoredTrace(JSON.parse(row.body)) : null;
  }

  async deleteTraces(filter: { chatId: string }): Promise<number> {
    const result = await this.#run('deleteTraces', this.#sql.deleteByChat, [filter.chatId]);
    return result.rowCount ?? 0;
  }

  /** A no-op: the thread store owns the connection. */
  async close(): Promise<void> {}
}
