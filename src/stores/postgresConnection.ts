/**
 * How {@link PostgresStore} talks to Postgres: one pool (its own or the caller's), the schema
 * migrated once before the first statement, an operation deadline on every call, and failures
 * turned into `StoreError`s that say whether retrying may help. The thread, lease and trace
 * statements all run through one {@link PostgresConnection}.
 * @module
 */
import pg from './pgDriver.js';
import { ColloquyError, StoreError } from '../errors.js';
import { TRANSIENT_NETWORK_CODES } from './common.js';
import { withDeadline } from './deadline.js';
import { migrateSchema } from './postgresMigrations.js';

/** SQLSTATE codes after which retrying the same operation may succeed. */
const transientStates = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03', '53300']);
const transientMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection timeout/i;

/** Whether a `pg` error means the connection or the server's load, not the request, failed. */
export function isTransientPostgresError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (transientStates.has(code) || code.startsWith('08') || TRANSIENT_NETWORK_CODES.has(code))
  )
    return true;
  if (transientMessages.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some(isTransientPostgresError)) return true;
  return (
    error.cause !== undefined && error.cause !== error && isTransientPostgresError(error.cause)
  );
}

/** What a {@link PostgresConnection} is opened with (resolved by the store). */
export interface PostgresConnectionOptions {
  connectionString?: string;
  pool?: pg.Pool;
  schema: string;
  /** Resolved operation timeout (0: none). */
  timeoutMs: number;
}

/** The pool, migrations, deadlines and error wrapping of one Postgres store. */
export class PostgresConnection {
  readonly #pool: pg.Pool;
  readonly #owned: boolean;
  readonly #schema: string;
  readonly #timeoutMs: number;
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(options: PostgresConnectionOptions) {
    this.#schema = options.schema;
    this.#owned = options.pool === undefined;
    this.#timeoutMs = options.timeoutMs;
    const limit = this.#timeoutMs === 0 ? undefined : this.#timeoutMs;
    this.#pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        connectionTimeoutMillis: Math.min(10_000, limit ?? 10_000),
        // A query stuck on a frozen server frees its connection after the deadline too.
        ...(limit !== undefined ? { query_timeout: limit } : {}),
      });
    // An idle pooled connection that breaks is dropped from the pool and reported here; queries
    // that were running on it reject on their own, so the event needs a listener only so that
    // Node does not exit on it.
    if (this.#owned) this.#pool.on('error', () => {});
  }

  /** Runs one statement (after the schema is migrated), within the deadline. */
  query(operation: string, sql: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.#deadline(operation, this.#queryNow(operation, sql, params));
  }

  /** Runs `work` in a READ COMMITTED transaction on one pooled connection. */
  transaction<T>(operation: string, work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.#deadline(
      operation,
      this.#migrated(operation).then(() =>
        this.#withTransaction(work).catch((error: unknown) => {
          throw error instanceof ColloquyError ? error : this.#failure(operation, error);
        }),
      ),
    );
  }

  /** Ends the pool if it is the store's own; later calls fail with a StoreError. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) await this.#pool.end();
  }

  /** Fails `work` with a transient StoreError once the operation timeout passes. */
  #deadline<T>(operation: string, work: Promise<T>): Promise<T> {
    return withDeadline(
      work,
      this.#timeoutMs,
      () =>
        new StoreError(
          `PostgresStore: ${operation} got no answer from Postgres within ${this.#timeoutMs} ms (operationTimeoutMs). ` +
            'The server is frozen, overloaded or unreachable; the operation may or may not have been applied. ' +
            'Check that Postgres is running, or raise operationTimeoutMs; the failure is transient: retry.',
          { transient: true },
        ),
    );
  }

  async #queryNow(operation: string, sql: string, params: unknown[]): Promise<pg.QueryResult> {
    await this.#migrated(operation);
    try {
      return await this.#pool.query(sql, params);
    } catch (error) {
      throw this.#failure(operation, error);
    }
  }

  async #withTransaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    // A connection lost mid-transaction rejects the running query (which reports it) and is also
    // emitted on the client: keep it, so that the connection is discarded instead of reused.
    const onError = (error: Error): void => void (broken = error);
    client.on('error', onError);
    try {
      // A client frozen mid-transaction (SIGSTOP, a long pause) would hold its row locks, the
      // lease rows a fenced write reads FOR SHARE included, until it thawed: the server ends such
      // a session once it has been idle in the transaction for half the operation timeout.
      const idleMs = this.#timeoutMs === 0 ? 0 : Math.max(1_000, Math.floor(this.#timeoutMs / 2));
      await client.query(`BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${idleMs}`);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A failed ROLLBACK means the connection is gone: discard it (release with an error).
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  /** Creates or upgrades the schema once per store (retried on the next call if it fails). */
  async #migrated(operation: string): Promise<void> {
    if (this.#closed) {
      throw new StoreError(
        `PostgresStore (schema ${this.#schema}): ${operation} after close(). Create a new PostgresStore to keep using Postgres.`,
      );
    }
    this.#ready ??= this.#withTransaction((db) => migrateSchema(db, this.#schema)).catch(
      (error: unknown) => {
        this.#ready = undefined;
        throw this.#failure(`${operation} (creating schema "${this.#schema}")`, error);
      },
    );
    await this.#ready;
  }

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error;
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
    const reason =
      error instanceof Error ? `${error.message || error.constructor.name}${code}` : String(error);
    if (isTransientPostgresError(error)) {
      return new StoreError(
        `PostgresStore: ${operation} failed: ${reason}. The failure is transient (connection lost, server busy, ` +
          'serialization failure or deadlock): retry, or wrap the store with withRetry(). If it persists, ' +
          'check that Postgres is running and that `connectionString` is right.',
        { cause: error, transient: true },
      );
    }
    return new StoreError(
      `PostgresStore: ${operation} failed: ${reason}. Check \`connectionString\`, the role's rights on schema ` +
        `"${this.#schema}", and that the schema holds only Colloquy's tables.`,
      { cause: error },
    );
  }
}
