/**
 * {@link Leases} in the `leases` table of a SQLite store: every process that opens the same
 * database file sees the same leases. Each method is one statement, so it is atomic.
 * @module
 */
import type Database from 'better-sqlite3';
import { checkFences, type Fence } from './fence.js';
import type { Leases } from './lease.js';

/** Leases kept in a SQLite database (the table is created by the store's migration 2). */
export class SqliteLeases implements Leases {
  readonly #acquire: Database.Statement<[{ key: string; owner: string; now: number; ttl: number }]>;
  readonly #renew: Database.Statement<[number, string, string]>;
  readonly #release: Database.Statement<[string, string]>;
  readonly #holder: Database.Statement<[string], { owner: string }>;
  readonly #wrap: (operation: string, error: unknown) => Error;

  /** @internal */
  constructor(db: Database.Database, wrap: (operation: string, error: unknown) => Error) {
    // Take the key when it is free, ours already, or expired; `changes` says whether we got it.
    this.#acquire = db.prepare(
      `INSERT INTO leases (lease_key, owner, expires_ms) VALUES (@key, @owner, @now + @ttl)
       ON CONFLICT (lease_key) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
       WHERE leases.owner = excluded.owner OR leases.expires_ms <= @now`,
    );
    this.#renew = db.prepare('UPDATE leases SET expires_ms = ? WHERE lease_key = ? AND owner = ?');
    this.#release = db.prepare('DELETE FROM leases WHERE lease_key = ? AND owner = ?');
    this.#holder = db.prepare('SELECT owner FROM leases WHERE lease_key = ?');
    this.#wrap = wrap;
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.#run(
      'acquire lease',
      () => this.#acquire.run({ key, owner, now: Date.now(), ttl: ttlMs }).changes > 0,
    );
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.#run(
      'renew lease',
      () => this.#renew.run(Date.now() + ttlMs, key, owner).changes > 0,
    );
  }

  async release(key: string, owner: string): Promise<void> {
    this.#run('release lease', () => this.#release.run(key, owner));
  }

  /**
   * Throws `LeaseLostError` unless each fence's lease is held by its owner. Call inside the
   * write's IMMEDIATE transaction: no other process can take a lease between check and write.
   */
  checkFences(operation: string, fences: readonly Fence[]): void {
    checkFences(operation, (key) => this.#holder.get(key)?.owner, fences);
  }

  #run<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw this.#wrap(operation, error);
    }
  }
}
