/**
 * {@link Leases} in the `colloquy_leases` table of a Postgres store (migration 2): every process
 * and host using the same database and schema sees the same leases. Expiry uses the server's
 * clock, so hosts whose clocks differ still agree. Each method is one statement.
 * @module
 */
import pg from './pgDriver.js';
import { checkFences, type Fence } from './fence.js';
import type { Leases } from './lease.js';

/**
 * Runs one statement through the store (which migrates first and wraps failures); with no
 * params, a text of several statements (then one result per statement).
 */
export type RunQuery = (
  operation: string,
  sql: string,
  params: unknown[],
) => Promise<{ rowCount: number | null; rows?: unknown[] }>;

/** The lease statements of a schema (names are unqualified; the store sets search_path). */
function statements(schema: string) {
  const table = `"${schema}".colloquy_leases`;
  return {
    threads: `"${schema}".colloquy_threads`,
    // Take the key when it is free, ours already, or expired; rowCount says whether we got it.
    acquire: `INSERT INTO ${table} AS l (lease_key, owner, expires_at)
      VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
      ON CONFLICT (lease_key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
      WHERE l.owner = EXCLUDED.owner OR l.expires_at <= clock_timestamp()`,
    renew: `UPDATE ${table} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
      WHERE lease_key = $1 AND owner = $2`,
    release: `DELETE FROM ${table} WHERE lease_key = $1 AND owner = $2`,
    // FOR SHARE: a holder change waits for the fenced write's transaction to end.
    holders: `SELECT lease_key, owner FROM ${table} WHERE lease_key = ANY($1::text[]) FOR SHARE`,
  };
}

/** Leases over a Postgres store's query runner. */
export class PostgresLeases implements Leases {
  readonly #run: RunQuery;
  readonly #sql: ReturnType<typeof statements>;

  constructor(schema: string, run: RunQuery) {
    this.#run = run;
    this.#sql = statements(schema);
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.#run('acquire lease', this.#sql.acquire, [key, owner, ttlMs]);
    return (result.rowCount ?? 0) > 0;
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.#run('renew lease', this.#sql.renew, [key, owner, ttlMs]);
    return (result.rowCount ?? 0) > 0;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.#run('release lease', this.#sql.release, [key, owner]);
  }

  /**
   * Throws `LeaseLostError` unless each fence's lease is held by its owner; run first in a write's
   * transaction (`db`), it locks the lease rows so no holder changes before the write commits.
   */
  async checkFences(db: pg.PoolClient, operation: string, fences: readonly Fence[]): Promise<void> {
    const keys = fences.map((fence) => fence.key);
    const { rows } = await db.query(this.#sql.holders, [keys]);
    const holders = new Map<string, string>();
    for (const row of rows as Array<{ lease_key: string; owner: string }>)
      holders.set(row.lease_key, row.owner);
    checkFences(operation, (key) => holders.get(key), fences);
  }

  /**
   * {@link acquire}, and the version of every thread of chat `chatId` (archives included) read
   * right after it, in one round trip: two statements sent together, the read with a snapshot
   * taken once the lease is held, so it sees every write of earlier holders. Resolves with the
   * versions by thread id, or null when the lease is busy.
   */
  async acquireReadingChat(
    key: string,
    owner: string,
    ttlMs: number,
    chatId: string,
  ): Promise<Record<string, number> | null> {
    // Parameters travel only with single statements: these values go in as quoted literals.
    const values: Record<string, string> = {
      $1: pg.escapeLiteral(key),
      $2: pg.escapeLiteral(owner),
      $3: String(Math.max(1, Math.floor(ttlMs))),
    };
    const acquire = this.#sql.acquire.replace(/\$[123]\b/g, (name) => values[name]!);
    const sql = `${acquire};
      SELECT thread_id, version FROM ${this.#sql.threads} WHERE chat_id = ${pg.escapeLiteral(chatId)}`;
    const results = (await this.#run('acquire lease', sql, [])) as unknown as Array<{
      rowCount: number | null;
      rows: Array<{ thread_id: string; version: number }>;
    }>;
    if ((results[0]?.rowCount ?? 0) === 0) return null;
    const versions: Record<string, number> = {};
    for (const row of results[1]?.rows ?? []) versions[row.thread_id] = Number(row.version);
    return versions;
  }
}
