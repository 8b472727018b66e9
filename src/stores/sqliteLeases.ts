/**
 * {@link Leases} in the `leases` table of a SQLite store: every process that opens the same
 * database file sees the same leases. Each method is one statement, so it is atomic.
 * @module
 */
import type Database from 'better-sqlite3';
import { checkFences, LeaseLostError, type Fence } from './fence.js';
import type { FoldingLeases } from './lease.js';

/**
 * Leases kept in a SQLite database (the table is created by the store's migrations 2 and 3). A
 * lease armed with {@link SqliteLeases.armRelease} is released by the store's next write fenced
 * with it, in that write's transaction.
 */
export class SqliteLeases implements FoldingLeases {
  readonly #acquire: Database.Statement<[string, string, number, number]>;
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
    // Positional parameters (key, owner, expiry, now): binding an array costs less than an object.
    this.#acquire = db.prepare(
      `INSERT INTO leases (lease_key, owner, expires_ms) VALUES (?, ?, ?)
       ON CONFLICT (lease_key) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
       WHERE leases.owner = excluded.owner OR leases.expires_ms <= ?`,
    );
    this.#renew = db.prepare('UPDATE leases SET expires_ms = ? WHERE lease_key = ? AND owner = ?');
    this.#release = db.prepare('DELETE FROM leases WHERE lease_key = ? AND owner = ?');
    this.#holder = db.prepare('SELECT owner FROM leases WHERE lease_key = ?');
    this.#wrap = wrap;
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.#run('acquire lease', () => {
      const now = Date.now();
      return this.#acquire.run(key, owner, now + ttlMs, now).changes > 0;
    });
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
   * Inside a fenced write's IMMEDIATE transaction, before its statements: throws `LeaseLostError`
   * unless each fence's lease is held by its owner and, when `release` (the write has its own
   * transaction, so it commits), releases the armed leases among them. For an armed lease one
   * statement does both: the DELETE matches only the holder's row, so a change proves the lease
   * was held. A write that then fails rolls the release back with it. Returns the released owners
   * (undefined when none), for {@link SqliteLeases.committed} once the transaction commits.
   * @internal
   */
  checkFencesAndRelease(
    operation: string,
    fences: readonly Fence[],
    release: boolean,
  ): string[] | undefined {
    let owners: string[] | undefined;
    for (const fence of fences) {
      const { key, owner } = fence;
      const armed = release && this.#armed.size > 0 && this.#armed.get(owner) === key;
      if (!armed) {
        if (this.#holder.get(key)?.owner !== owner) throw new LeaseLostError(key, operation);
      } else if (!owners?.includes(owner)) {
        if (this.#release.run(key, owner).changes === 0) throw new LeaseLostError(key, operation);
        (owners ??= []).push(owner);
      }
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
