/**
 * Memory in SQLite, the embedded default: records and vectors in tables beside the threads (the
 * same file and connection as a `SqliteStore`), searched with sqlite-vec (a vec0 table
 * partitioned by agency and user).
 * @module
 */
import Database from 'better-sqlite3';
import type { SqliteStore } from '../stores/sqlite.js';
import * as sqliteVec from 'sqlite-vec';
import { ConfigError } from '../errors.js';
import { cosine } from './embedder.js';
import { inScope, mixedEmbedders, recordOf } from './memoryBackend.js';
import { entryOfRow, recordValues, summaryOfRow, workingOfRow, type RecordRow } from './rows.js';
import { ensureVectorTable, migrateMemory, scopeKey, vectorBlob } from './sqliteSchema.js';
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

/**
 * Options of {@link SqliteMemory}: a `SqliteStore`, whose file (and connection) memory then
 * shares with the threads, or a file of its own.
 */
export type SqliteMemoryOptions = { store: SqliteStore } | { path: string };

/**
 * Memory in SQLite with sqlite-vec. With a `SqliteStore`'s connection, memory lives in the same
 * file as the threads.
 *
 * @example
 * ```ts
 * const store = new SqliteStore({ path: '.colloquy/colloquy.db' });
 * const memory = new SqliteMemory({ store });
 * ```
 */
export class SqliteMemory implements MemoryBackend {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #owns: boolean;

  constructor(options: SqliteMemoryOptions) {
    this.#owns = 'path' in options;
    this.#db = 'path' in options ? new Database(options.path) : options.store.connection;
    try {
      sqliteVec.load(this.#db);
    } catch (error) {
      throw new ConfigError(
        `Memory on SQLite needs the sqlite-vec extension, which did not load (${(error as Error).message}). Reinstall it (npm install sqlite-vec) or use memory: { store: new InMemoryMemory() }.`,
        { cause: error },
      );
    }
    migrateMemory(this.#db);
  }

  /** The model and size of the stored vectors, read synchronously (for start-up checks). */
  embeddingSync(): { model: string; dimensions: number } | null {
    const rows = this.#db.prepare('SELECT key, value FROM memory_meta').all() as Array<{
      key: string;
      value: string;
    }>;
    const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return meta.model && meta.dimensions
      ? { model: meta.model, dimensions: Number(meta.dimensions) }
      : null;
  }

  embedding(): Promise<{ model: string; dimensions: number } | null> {
    return Promise.resolve(this.embeddingSync());
  }

  #setEmbedding(model: string, dimensions: number): void {
    const put = this.#db.prepare(
      'INSERT INTO memory_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    put.run('model', model);
    put.run('dimensions', String(dimensions));
    ensureVectorTable(this.#db, dimensions);
  }

  #insert(entries: readonly MemoryEntry[]): void {
    const first = entries[0];
    if (!first) return;
    const known = this.embeddingSync();
    if (!known) this.#setEmbedding(first.model, first.dimensions);
    else if (known.model !== first.model || known.dimensions !== first.dimensions) {
      throw mixedEmbedders(known, first);
    }
    const record = this.#db.prepare(
      `INSERT INTO memory_records (item_id, thread_id, agency, user_id, chat_id, position, role, agent, text, model, dimensions, created_at, vector)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id, item_id) DO NOTHING`,
    );
    const vec = this.#db.prepare(
      'INSERT INTO memory_vec (rowid, scope, embedding) VALUES (?, ?, ?)',
    );
    for (const e of entries) {
      const blob = vectorBlob(e.vector);
      const info = record.run(...recordValues(e, blob));
      if (info.changes > 0)
        vec.run(BigInt(info.lastInsertRowid), scopeKey(e.agency, e.userId), blob);
    }
  }

  addEntries(entries: readonly MemoryEntry[], marks: Record<string, number>): Promise<void> {
    const mark = this.#db.prepare(
      'INSERT INTO memory_marks (thread_id, version) VALUES (?, ?) ON CONFLICT (thread_id) DO UPDATE SET version = excluded.version',
    );
    return settled(() =>
      this.#db
        .transaction(() => {
          this.#insert(entries);
          for (const [threadId, version] of Object.entries(marks)) mark.run(threadId, version);
        })
        .immediate(),
    );
  }

  indexedVersion(threadId: string): Promise<number> {
    const row = this.#db
      .prepare('SELECT version FROM memory_marks WHERE thread_id = ?')
      .get(threadId) as { version: number } | undefined;
    return Promise.resolve(row?.version ?? 0);
  }

  search(query: readonly number[], scope: MemoryScope, k: number): Promise<MemoryHit[]> {
    if (!this.embeddingSync() || k <= 0) return Promise.resolve([]);
    if (scope.agency === undefined || scope.chatIds !== undefined) {
      // A few chats, or every agency of a user: an exact scan of those records.
      const hits = [...this.#rows(scope)].map((row) => {
        const entry = entryOfRow(row);
        return { ...recordOf(entry), similarity: cosine(query, entry.vector) };
      });
      return Promise.resolve(hits.sort((a, b) => b.similarity - a.similarity).slice(0, k));
    }
    const rows = this.#db
      .prepare(
        `SELECT r.*, v.distance FROM (SELECT rowid, distance FROM memory_vec WHERE embedding MATCH ? AND k = ? AND scope = ?) v
         JOIN memory_records r ON r.id = v.rowid ORDER BY v.distance`,
      )
      .all(vectorBlob(query), k, scopeKey(scope.agency, scope.userId)) as Array<
      RecordRow & { distance: number }
    >;
    return Promise.resolve(
      rows.map((row) => ({ ...recordOf(entryOfRow(row)), similarity: 1 - row.distance })),
    );
  }

  *#rows(scope: Partial<MemoryScope>): Iterable<RecordRow> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (scope.userId !== undefined) {
      where.push('user_id = ?');
      args.push(scope.userId);
    }
    if (scope.agency !== undefined) {
      where.push('agency = ?');
      args.push(scope.agency);
    }
    if (scope.chatIds !== undefined) {
      where.push(`chat_id IN (${scope.chatIds.map(() => '?').join(', ') || 'NULL'})`);
      args.push(...scope.chatIds);
    }
    const sql = `SELECT * FROM memory_records ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
    yield* this.#db.prepare(sql).iterate(...args) as Iterable<RecordRow>;
  }

  list(scope: MemoryScope): Promise<MemoryRecord[]> {
    return Promise.resolve([...this.#rows(scope)].map((row) => recordOf(entryOfRow(row))));
  }

  async *entries(scope: Partial<MemoryScope> = {}): AsyncIterable<MemoryEntry[]> {
    await Promise.resolve();
    const all = [...this.#rows(scope)].map(entryOfRow).filter((e) => inScope(e, scope));
    for (let i = 0; i < all.length; i += 500) yield all.slice(i, i + 500);
  }

  replaceVectors(entries: readonly MemoryEntry[]): Promise<void> {
    return settled(() =>
      this.#db
        .transaction(() => {
          this.#db.exec(
            'DROP TABLE IF EXISTS memory_vec; DELETE FROM memory_records; DELETE FROM memory_meta;',
          );
          this.#insert(entries);
        })
        .immediate(),
    );
  }

  getWorking(agency: string, userId: string): Promise<WorkingMemoryVersion | null> {
    const row = this.#db
      .prepare(
        'SELECT * FROM memory_working WHERE agency = ? AND user_id = ? ORDER BY version DESC LIMIT 1',
      )
      .get(agency, userId) as Record<string, unknown> | undefined;
    return Promise.resolve(row ? workingOfRow(row) : null);
  }

  workingVersions(agency: string, userId: string): Promise<WorkingMemoryVersion[]> {
    const rows = this.#db
      .prepare('SELECT * FROM memory_working WHERE agency = ? AND user_id = ? ORDER BY version')
      .all(agency, userId) as Array<Record<string, unknown>>;
    return Promise.resolve(rows.map(workingOfRow));
  }

  putWorking(agency: string, userId: string, content: string): Promise<WorkingMemoryVersion> {
    const createdAt = new Date().toISOString();
    const version = this.#db
      .transaction(() => {
        const row = this.#db
          .prepare('SELECT MAX(version) AS v FROM memory_working WHERE agency = ? AND user_id = ?')
          .get(agency, userId) as { v: number | null };
        const next = (row.v ?? 0) + 1;
        this.#db
          .prepare(
            'INSERT INTO memory_working (agency, user_id, version, content, created_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(agency, userId, next, content, createdAt);
        return next;
      })
      .immediate();
    return Promise.resolve({ agency, userId, version, content, createdAt });
  }

  summaries(threadId: string): Promise<SummaryRecord[]> {
    const rows = this.#db
      .prepare('SELECT * FROM memory_summaries WHERE thread_id = ? ORDER BY position')
      .all(threadId) as Array<Record<string, unknown>>;
    return Promise.resolve(rows.map(summaryOfRow));
  }

  putSummary(s: SummaryRecord): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO memory_summaries (thread_id, position, head_id, agency, user_id, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (thread_id, position) DO UPDATE SET head_id = excluded.head_id, text = excluded.text, created_at = excluded.created_at`,
      )
      .run(s.threadId, s.position, s.headId, s.agency, s.userId, s.text, s.createdAt);
    return Promise.resolve();
  }

  forget(userId: string, agency?: string): Promise<ForgetReport> {
    const filter = agency === undefined ? 'user_id = ?' : 'user_id = ? AND agency = ?';
    const args = agency === undefined ? [userId] : [userId, agency];
    const report = this.#db
      .transaction((): ForgetReport => {
        const ids = this.#db
          .prepare(`SELECT id FROM memory_records WHERE ${filter}`)
          .all(...args) as Array<{ id: number }>;
        if (ids.length > 0) {
          const drop = this.#db.prepare('DELETE FROM memory_vec WHERE rowid = ?');
          for (const { id } of ids) drop.run(BigInt(id));
        }
        this.#db.prepare(`DELETE FROM memory_records WHERE ${filter}`).run(...args);
        const working = this.#db.prepare(`DELETE FROM memory_working WHERE ${filter}`).run(...args);
        const summaries = this.#db
          .prepare(`DELETE FROM memory_summaries WHERE ${filter}`)
          .run(...args);
        return {
          vectors: ids.length,
          workingVersions: working.changes,
          summaries: summaries.changes,
        };
      })
      .immediate();
    return Promise.resolve(report);
  }

  close(): Promise<void> {
    if (this.#owns) this.#db.close();
    return Promise.resolve();
  }
}

/** Runs synchronous `work` as a promise (its error a rejection, not a throw). */
function settled(work: () => void): Promise<void> {
  try {
    work();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
