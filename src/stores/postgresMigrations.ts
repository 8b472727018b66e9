/**
 * The schema of {@link PostgresStore}, as an ordered list of migrations: the migration at index
 * `i` brings the schema to version `i + 1`. Applied migrations are recorded in the
 * `colloquy_migrations` table of the store's schema. Never edit or reorder a released entry;
 * append a new one.
 *
 * Every statement runs with `search_path` set to the store's schema, so names are unqualified.
 *
 * Changelog:
 * - 1: threads, segments, items and checkpoints.
 * - 2: leases (key, owner, expiry by the server's clock).
 * - 3: traces (summary columns + the whole trace as JSON), by chat, run and start time.
 * @module
 */
import { StoreError } from '../errors.js';

/** SQL of each schema version, oldest first (array position + 1 = version). */
export const postgresMigrations: readonly string[] = [
  // 1. A thread points at its head segment. A segment holds the items at positions
  //    `parent_length…` and reads lower positions from `parent_segment`, so forks and resets
  //    never copy items. `children` counts segments built on this one and `owned` says whether
  //    it is some thread's head: a deleted thread frees a segment only when both are zero.
  //    Items, metadata and checkpoints are stored as JSON text, byte for byte as written.
  `CREATE TABLE colloquy_segments (
     segment_id text PRIMARY KEY,
     parent_segment text,
     parent_length integer NOT NULL,
     children integer NOT NULL DEFAULT 0,
     owned boolean NOT NULL DEFAULT true
   );
   CREATE TABLE colloquy_threads (
     thread_id text COLLATE "C" PRIMARY KEY,
     chat_id text COLLATE "C",
     version integer NOT NULL,
     metadata text NOT NULL,
     forked_from_thread text,
     forked_from_version integer,
     segment_id text NOT NULL,
     created_at text NOT NULL,
     updated_at text NOT NULL
   );
   CREATE INDEX colloquy_threads_by_chat ON colloquy_threads (chat_id, thread_id);
   CREATE TABLE colloquy_items (
     segment_id text NOT NULL,
     position integer NOT NULL,
     item text NOT NULL,
     PRIMARY KEY (segment_id, position)
   );
   CREATE TABLE colloquy_checkpoints (
     seq bigserial PRIMARY KEY,
     checkpoint_id text NOT NULL UNIQUE,
     chat_id text NOT NULL,
     body text NOT NULL
   );
   CREATE INDEX colloquy_checkpoints_by_chat ON colloquy_checkpoints (chat_id, seq);`,
  // 2. A lease lets one caller at a time work on a chat or a run; it expires unless renewed.
  `CREATE TABLE colloquy_leases (
     lease_key text COLLATE "C" PRIMARY KEY,
     owner text NOT NULL,
     expires_at timestamptz NOT NULL
   );`,
  // 3. Finished traces of the store's agency calls and ensemble runs (see postgresTraces.ts):
  //    the summary and the whole trace as JSON text, listed newest first by chat or run.
  `CREATE TABLE colloquy_traces (
     trace_id text COLLATE "C" PRIMARY KEY,
     chat_id text COLLATE "C",
     run_id text COLLATE "C",
     started_at text COLLATE "C" NOT NULL,
     summary text NOT NULL,
     body text NOT NULL
   );
   CREATE INDEX colloquy_traces_by_chat ON colloquy_traces (chat_id, started_at, trace_id);
   CREATE INDEX colloquy_traces_by_run ON colloquy_traces (run_id, started_at, trace_id);
   CREATE INDEX colloquy_traces_by_start ON colloquy_traces (started_at, trace_id);`,
];

/** The part of a pooled `pg` client the migration runner uses. */
export interface MigrationClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Brings `schema` to the newest version in one transaction, holding an advisory lock so that
 * concurrent first uses wait for each other instead of racing to create tables. The caller
 * provides the connection and handles BEGIN/COMMIT/ROLLBACK.
 */
export async function migrateSchema(client: MigrationClient, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`colloquy:migrate:${schema}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await client.query(`SET LOCAL search_path TO "${schema}"`);
  await client.query(
    'CREATE TABLE IF NOT EXISTS colloquy_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const { rows } = await client.query(
    'SELECT coalesce(max(version), 0) AS version FROM colloquy_migrations',
  );
  const current = Number((rows[0] as { version: number }).version);
  if (current > postgresMigrations.length) {
    throw new StoreError(
      `PostgresStore: schema "${schema}" is at version ${current}, newer than this Colloquy understands ` +
        `(${postgresMigrations.length}). Upgrade Colloquy, or point the store at another schema.`,
    );
  }
  for (let version = current + 1; version <= postgresMigrations.length; version++) {
    await client.query(postgresMigrations[version - 1]!);
    await client.query('INSERT INTO colloquy_migrations (version) VALUES ($1)', [version]);
  }
}
