/**
 * Memory in PostgreSQL: records and vectors in `colloquy_memory_*` tables (beside a
 * `PostgresStore`'s, in the same schema if you like). Search uses pgvector's cosine distance when
 * the extension exists (or can be created); otherwise one notice is logged and search is an exact
 * scan of the user's vectors.
 * @module
 */
import pg from '../stores/pgDriver.js';
import { ConfigError } from '../errors.js';
import { cosine } from './embedder.js';
import { mixedEmbedders, recordOf } from './memoryBackend.js';
import { memoryTables, probePgvector, vectorLiteral } from './postgresSchema.js';
import { blobVector } from './sqliteSchema.js';
import { entryOfRow, recordValues, summaryOfRow, workingOfRow, type RecordRow } from './rows.js';
import type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  MemoryScope,
  SummaryRecord,
  WorkingMemoryVersion,
} from './types.js';

/** Options of {@link PostgresMemory}. */
export interface PostgresMemoryOptions {
  /** e.g. `postgres://app@127.0.0.1:5432/app` (default: the `PG*` environment variables). */
  connectionString?: string;
  /** A pool to use instead (never ended by the backend). */
  pool?: pg.Pool;
  /** Schema of the tables (default `public`); created if missing. */
  schema?: string;
  /** `false` never uses pgvector, even when it exists (default: use it when it exists). */
  pgvector?: boolean;
}

/**
 * Memory in Postgres 12+, with pgvector when available.
 *
 * @example
 * ```ts
 * const memory = new PostgresMemory({ connectionString: process.env.DATABASE_URL, schema: 'colloquy' });
 * const agency = new Agency({ entryPoints: [agent], threads: new ThreadManager({ store }),
 *   memory: { store: memory, embedder, recall: {} } });
 * ```
 */
export class PostgresMemory implements MemoryBackend {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #owned: boolean;
  readonly #t: (name: string) => string;
  readonly #schema: string;
  readonly #allowVector: boolean;
  #ready: Promise<boolean> | undefined;

  constructor(options: PostgresMemoryOptions = {}) {
    const schema = options.schema ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError(
        `PostgresMemory: schema "${schema}" is not a plain identifier. Use letters, digits and underscores (at most 63), starting with a letter.`,
      );
    }
    this.#schema = schema;
    this.#t = (name) => `"${schema}".colloquy_memory_${name}`;
    this.#owned = options.pool === undefined;
    this.#pool =
      options.pool ??
      new pg.Pool({
        ...(options.connectionString !== undefined
          ? { connectionString: options.connectionString }
          : {}),
      });
    // An idle pooled connection that breaks is dropped and reported here; queries running on it
    // reject on their own, so the listener only keeps Node from exiting on the event.
    if (this.#owned) this.#pool.on('error', () => {});
    this.#allowVector = options.pgvector !== false;
  }

  /** Creates the tables and probes pgvector (once); resolves with whether pgvector is used. */
  ready(): Promise<boolean> {
    this.#ready ??= this.#open();
    return this.#ready;
  }

  async #open(): Promise<boolean> {
    const vector = this.#allowVector && (await probePgvector(this.#pool));
    await this.#transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `colloquy_memory:${this.#schema}`,
      ]);
      await db.query(memoryTables(this.#schema));
      const known = await this.#embeddingOn(db);
      if (vector && known) await this.#ensureColumn(db, known.dimensions);
    });
    return vector;
  }

  /** The pgvector column of `dimensions`, filled for rows written without it. */
  async #ensureColumn(db: pg.PoolClient, dimensions: number): Promise<void> {
    await db.query(
      `ALTER TABLE ${this.#t('records')} ADD COLUMN IF NOT EXISTS embedding vector(${dimensions})`,
    );
    const missing = await db.query(
      `SELECT id, vector FROM ${this.#t('records')} WHERE embedding IS NULL`,
    );
    for (const row of missing.rows as Array<{ id: string; vector: Buffer }>) {
      await db.query(`UPDATE ${this.#t('records')} SET embedding = $2::vector WHERE id = $1`, [
        row.id,
        vectorLiteral(blobVector(row.vector)),
      ]);
    }
  }

  async #transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const db = await this.#pool.connect();
    try {
      await db.query('BEGIN');
      const result = await work(db);
      await db.query('COMMIT');
      return result;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {}); // the statement's error is the one to report
      throw error;
    } finally {
      db.release();
    }
  }

  async #query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    await this.ready();
    return this.#pool.query(sql, params);
  }

  async #embeddingOn(
    db: pg.PoolClient | pg.Pool,
  ): Promise<{ model: string; dimensions: number } | null> {
    const { rows } = await db.query(`SELECT key, value FROM ${this.#t('meta')}`);
    const meta = Object.fromEntries(
      (rows as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
    );
    return meta.model && meta.dimensions
      ? { model: meta.model, dimensions: Number(meta.dimensions) }
      : null;
  }

  async embedding(): Promise<{ model: string; dimensions: number } | null> {
    await this.ready();
    return this.#embeddingOn(this.#pool);
  }

  async #insert(db: pg.PoolClient, entries: readonly MemoryEntry[]): Promise<void> {
    const first = entries[0];
    if (!first) return;
    const vector = await this.ready();
    const known = await this.#embeddingOn(db);
    if (!known) {
      await db.query(
        `INSERT INTO ${this.#t('meta')} (key, value) VALUES ('model', $1), ('dimensions', $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [first.model, String(first.dimensions)],
      );
      if (vector) await this.#ensureColumn(db, first.dimensions);
    }
    const other = entries.find(
      (e) => known && (e.model !== known.model || e.dimensions !== known.dimensions),
    );
    if (known && other) throw mixedEmbedders(known, other);
    for (const e of entries) {
      await db.query(
        `INSERT INTO ${this.#t('records')} (item_id, thread_id, agency, user_id, chat_id, position, role, agent, text, model, dimensions, created_at, vector${vector ? ', embedding' : ''})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13${vector ? ', $14::vector' : ''})
         ON CONFLICT (thread_id, item_id) DO NOTHING`,
        [...recordValues(e), ...(vector ? [vectorLiteral(e.vector)] : [])],
      );
    }
  }

  async addEntries(entries: readonly MemoryEntry[], marks: Record<string, number>): Promise<void> {
    await this.ready();
    await this.#transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `colloquy_memory_meta:${this.#schema}`,
      ]);
      await this.#insert(db, entries);
      for (const [threadId, version] of Object.entries(marks)) {
        await db.query(
          `INSERT INTO ${this.#t('marks')} (thread_id, version) VALUES ($1, $2)
           ON CONFLICT (thread_id) DO UPDATE SET version = excluded.version`,
          [threadId, version],
        );
      }
    });
  }

  async indexedVersion(threadId: string): Promise<number> {
    const { rows } = await this.#query(
      `SELECT version FROM ${this.#t('marks')} WHERE thread_id = $1`,
      [threadId],
    );
    return (rows[0] as { version: number } | undefined)?.version ?? 0;
  }

  #where(scope: Partial<MemoryScope>, params: unknown[]): string {
    const where: string[] = [];
    if (scope.userId !== undefined) where.push(`user_id = $${params.push(scope.userId)}`);
    if (scope.agency !== undefined) where.push(`agency = $${params.push(scope.agency)}`);
    if (scope.chatIds !== undefined) where.push(`chat_id = ANY($${params.push(scope.chatIds)})`);
    return where.length ? `WHERE ${where.join(' AND ')}` : '';
  }

  async search(query: readonly number[], scope: MemoryScope, k: number): Promise<MemoryHit[]> {
    if (k <= 0 || !(await this.embedding())) return [];
    const params: unknown[] = [];
    const where = this.#where(scope, params);
    if (await this.ready()) {
      const at = params.push(vectorLiteral(query));
      const limit = params.push(k);
      const { rows } = await this.#query(
        `SELECT *, 1 - (embedding <=> $${at}::vector) AS similarity FROM ${this.#t('records')} ${where}
         ORDER BY embedding <=> $${at}::vector, id LIMIT $${limit}`,
        params,
      );
      return (rows as Array<RecordRow & { similarity: number }>).map((row) => ({
        ...recordOf(entryOfRow(row)),
        similarity: Number(row.similarity),
      }));
    }
    const { rows } = await this.#query(
      `SELECT * FROM ${this.#t('records')} ${where} ORDER BY id`,
      params,
    );
    return (rows as RecordRow[])
      .map((row) => {
        const entry = entryOfRow(row);
        return { ...recordOf(entry), similarity: cosine(query, entry.vector) };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
  }

  async list(scope: MemoryScope): Promise<MemoryRecord[]> {
    const params: unknown[] = [];
    const { rows } = await this.#query(
      `SELECT * FROM ${this.#t('records')} ${this.#where(scope, params)} ORDER BY id`,
      params,
    );
    return (rows as RecordRow[]).map((row) => recordOf(entryOfRow(row)));
  }

  async *entries(scope: Partial<MemoryScope> = {}): AsyncIterable<MemoryEntry[]> {
    let after = '0';
    for (;;) {
      const params: unknown[] = [];
      const where = this.#where(scope, params);
      const from = params.push(after);
      const { rows } = await this.#query(
        `SELECT * FROM ${this.#t('records')} ${where ? `${where} AND` : 'WHERE'} id > $${from} ORDER BY id LIMIT 500`,
        params,
      );
      if (rows.length === 0) return;
      yield (rows as RecordRow[]).map(entryOfRow);
      after = String((rows.at(-1) as RecordRow).id);
    }
  }

  async replaceVectors(entries: readonly MemoryEntry[]): Promise<void> {
    const vector = await this.ready();
    await this.#transaction(async (db) => {
      await db.query(`DELETE FROM ${this.#t('records')}`);
      await db.query(`DELETE FROM ${this.#t('meta')}`);
      if (vector)
        await db.query(`ALTER TABLE ${this.#t('records')} DROP COLUMN IF EXISTS embedding`);
      await this.#insert(db, entries);
    });
  }

  async getWorking(agency: string, userId: string): Promise<WorkingMemoryVersion | null> {
    const { rows } = await this.#query(
      `SELECT * FROM ${this.#t('working')} WHERE agency = $1 AND user_id = $2 ORDER BY version DESC LIMIT 1`,
      [agency, userId],
    );
    return rows[0] ? workingOfRow(rows[0]) : null;
  }

  async workingVersions(agency: string, userId: string): Promise<WorkingMemoryVersion[]> {
    const { rows } = await this.#query(
      `SELECT * FROM ${this.#t('working')} WHERE agency = $1 AND user_id = $2 ORDER BY version`,
      [agency, userId],
    );
    return rows.map(workingOfRow);
  }

  async putWorking(agency: string, userId: string, content: string): Promise<WorkingMemoryVersion> {
    await this.ready();
    const createdAt = new Date().toISOString();
    return this.#transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `colloquy_memory_working:${agency}\u0001${userId}`,
      ]);
      const { rows } = await db.query(
        `INSERT INTO ${this.#t('working')} (agency, user_id, version, content, created_at)
         SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3, $4 FROM ${this.#t('working')} WHERE agency = $1 AND user_id = $2
         RETURNING *`,
        [agency, userId, content, createdAt],
      );
      return workingOfRow(rows[0]);
    });
  }

  async summaries(threadId: string): Promise<SummaryRecord[]> {
    const { rows } = await this.#query(
      `SELECT * FROM ${this.#t('summaries')} WHERE thread_id = $1 ORDER BY position`,
      [threadId],
    );
    return rows.map(summaryOfRow);
  }

  async putSummary(s: SummaryRecord): Promise<void> {
    await this.#query(
      `INSERT INTO ${this.#t('summaries')} (thread_id, position, head_id, agency, user_id, text, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (thread_id, position) DO UPDATE SET head_id = excluded.head_id, text = excluded.text, created_at = excluded.created_at`,
      [s.threadId, s.position, s.headId, s.agency, s.userId, s.text, s.createdAt],
    );
  }

  async forget(userId: string, agency?: string): Promise<ForgetReport> {
    await this.ready();
    const filter = agency === undefined ? 'user_id = $1' : 'user_id = $1 AND agency = $2';
    const params = agency === undefined ? [userId] : [userId, agency];
    return this.#transaction(async (db) => {
      const count = async (table: string) =>
        (await db.query(`DELETE FROM ${this.#t(table)} WHERE ${filter}`, params)).rowCount ?? 0;
      return {
        vectors: await count('records'),
        workingVersions: await count('working'),
        summaries: await count('summaries'),
      };
    });
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}
