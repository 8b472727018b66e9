/**
 * The Postgres tables of memory (`colloquy_memory_*`, in the schema given), and the pgvector
 * probe: the extension is used when it exists or can be created; otherwise one notice is logged
 * and search scans the user's vectors (correct, slower).
 * @module
 */
import type pgTypes from 'pg';
import { getDefaultLogger } from '../logger.js';

/** The statements that create memory's tables in `schema` (idempotent). */
export function memoryTables(schema: string): string {
  const s = `"${schema}"`;
  return `CREATE SCHEMA IF NOT EXISTS ${s};
    CREATE TABLE IF NOT EXISTS ${s}.colloquy_memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS ${s}.colloquy_memory_records (
      id BIGSERIAL PRIMARY KEY,
      item_id TEXT NOT NULL, thread_id TEXT NOT NULL, agency TEXT NOT NULL, user_id TEXT NOT NULL,
      chat_id TEXT NOT NULL, position INTEGER NOT NULL, role TEXT NOT NULL, agent TEXT NOT NULL,
      text TEXT NOT NULL, model TEXT NOT NULL, dimensions INTEGER NOT NULL, created_at TEXT NOT NULL,
      vector BYTEA NOT NULL, UNIQUE (thread_id, item_id));
    CREATE INDEX IF NOT EXISTS colloquy_memory_records_user
      ON ${s}.colloquy_memory_records (user_id, agency, chat_id);
    CREATE TABLE IF NOT EXISTS ${s}.colloquy_memory_marks (
      thread_id TEXT PRIMARY KEY, version INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS ${s}.colloquy_memory_working (
      agency TEXT NOT NULL, user_id TEXT NOT NULL, version INTEGER NOT NULL, content TEXT NOT NULL,
      created_at TEXT NOT NULL, PRIMARY KEY (agency, user_id, version));
    CREATE TABLE IF NOT EXISTS ${s}.colloquy_memory_summaries (
      thread_id TEXT NOT NULL, position INTEGER NOT NULL, head_id TEXT NOT NULL, agency TEXT,
      user_id TEXT, text TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (thread_id, position));`;
}

/**
 * Whether pgvector can be used: already installed in the database, or created now. When it
 * cannot (not installed on the server, or no right to create it), logs one notice that says so
 * and what to do, and returns false.
 */
export async function probePgvector(pool: pgTypes.Pool): Promise<boolean> {
  const installed = await pool.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  if (installed.rowCount) return true;
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  } catch (error) {
    getDefaultLogger().warn(
      { err: error },
      `PostgresMemory: the pgvector extension is not available (${(error as Error).message}); ` +
        'memory search scans the user’s stored vectors instead (correct, slower on large memories). ' +
        'To use pgvector, install it on the server and run CREATE EXTENSION vector as a user allowed to.',
    );
    return false;
  }
}

/** A vector as pgvector's text form, `[1,2,3]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}
