/**
 * {@link Leases} in the `colloquy_leases` table of a Postgres store (migration 2): every process
 * and host using the same database and schema sees the same leases. Expiry uses the server's
 * clock, so hosts whose clocks differ still agree. Each method is one statement.
 * @module
 */
import type { Leases } from './lease.js';

/** Runs one statement through the store (which migrates first and wraps failures). */
export type RunQuery = (
  operation: string,
  sql: string,
  params: unknown[],
) => Promise<{ rowCount: number | null }>;

/** The lease statements of a schema (names are unqualified; the store sets search_path). */
function statements(schema: string) {
  const table = `"${schema}".colloquy_leases`;
  return {
    // Take the key when it is free, ours already, or expired; rowCount says whether we got it.
    acquire: `INSERT INTO ${table} AS l (lease_key, owner, expires_at)
      VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
      ON CONFLICT (lease_key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
      WHERE l.owner = EXCLUDED.owner OR l.expires_at <= clock_timestamp()`,
    renew: `UPDATE ${table} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
      WHERE lease_key = $1 AND owner = $2`,
    release: `DELETE FROM ${table} WHERE lease_key = $1 AND owner = $2`,
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
}
