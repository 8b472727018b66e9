/**
 * {@link Leases} in the `leases` table of a SQLite store: every process that opens the same
 * database file sees the same leases. Each method is one statement, so it is atomic.
 * @module
 */
import type Database from 'better-sqlite3';
import { checkFences, type Fence } from './fence.js';
import type { FoldingLeases } from './lease.js';

/**
 * Leases kept in a SQLite database (the table is created by the store's migrations 2 and 3). A
 * lease armed with {@link SqliteLeases.armRelease} is released by the store's next write fenced
 * with it, in that write's transaction.
 */
export class SqliteLeases implements FoldingLeases {
  readonly #acquire: Database.Statement<[{ key: string; owner: string; now: number; ttl: number }]>;
  readonly #renew: Database.Statement<[number, string, string]>;
  readonly #release: Database.Statement<[string, string]>;
  readonly #holder: Database.Statement<[string], { owner: string }>;
  readonly #wrap: (operation: string, error: unknown) => Error;
  /** Armed releases: owner (the fencing token, unique per holding) → lease key. */
  readonly #armed = new Map<string, string>();
  /** Owners whose armed lease a committed write released, until disarmed. */
  readonly #released = new Set<string>();

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

  armRelease(key: string, owner: string): void {
    this.#armed.set(owner, key);
  }

  disarmRelease(_key: string, owner: string): boolean {
    this.#armed.delete(owner);
    return this.#released.delete(owner);
  }

  /**
   * Inside a fenced write's transaction, after its checks and statements: releases the armed
   * leases among `fences` and returns their owners (undefined when none), for
   * {@link SqliteLeases.committed} once the transaction commits.
   * @internal
   */
  releaseArmed(fences: readonly Fence[]): string[] | undefined {
    if (this.#armed.size === 0) return undefined;
    let owners: string[] | undefined;
    for (const { key, owner } of fences) {
      if (this.#armed.get(owner) !== key) continue;
      this.#release.run(key, owner);
      (owners ??= []).push(owner);
    }
    return owners;
  }

  /** The write that released `owners`' leases committed. @internal */
  committed(owners: readonly string[]): void {
    for (const owner of owners) {
      this.#armed.delete(owner);
      this.#released.add(owner);
    }
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
