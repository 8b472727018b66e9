/**
 * The SQLite tables of memory (beside the thread store's, in the same file), as an ordered list
 * of migrations: an entry's position is its version.
 * @module
 */
import type Database from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS memory_records (
     id INTEGER PRIMARY KEY,
     item_id TEXT NOT NULL, thread_id TEXT NOT NULL, agency TEXT NOT NULL, user_id TEXT NOT NULL,
     chat_id TEXT NOT NULL, position INTEGER NOT NULL, role TEXT NOT NULL, agent TEXT NOT NULL,
     text TEXT NOT NULL, model TEXT NOT NULL, dimensions INTEGER NOT NULL, created_at TEXT NOT NULL,
     vector BLOB NOT NULL, UNIQUE (thread_id, item_id));
   CREATE INDEX IF NOT EXISTS memory_records_user ON memory_records (user_id, agency, chat_id);
   CREATE TABLE IF NOT EXISTS memory_marks (thread_id TEXT PRIMARY KEY, version INTEGER NOT NULL);
   CREATE TABLE IF NOT EXISTS memory_working (
     agency TEXT NOT NULL, user_id TEXT NOT NULL, version INTEGER NOT NULL, content TEXT NOT NULL,
     created_at TEXT NOT NULL, PRIMARY KEY (agency, user_id, version));
   CREATE TABLE IF NOT EXISTS memory_summaries (
     thread_id TEXT NOT NULL, position INTEGER NOT NULL, head_id TEXT NOT NULL, agency TEXT,
     user_id TEXT, text TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (thread_id, position));`,
];

/** Brings the memory tables of `db` to the newest version. */
export function migrateMemory(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS memory_migrations (version INTEGER NOT NULL)');
  db.transaction(() => {
    const row = db.prepare('SELECT MAX(version) AS v FROM memory_migrations').get() as {
      v: number | null;
    };
    for (let v = row.v ?? 0; v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v]!);
      db.prepare('INSERT INTO memory_migrations (version) VALUES (?)').run(v + 1);
    }
  }).immediate();
}

/** The vec0 table of `dimensions`-sized vectors (made on first use; the size is fixed). */
export function ensureVectorTable(db: Database.Database, dimensions: number): void {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS memory_vec USING vec0(scope TEXT PARTITION KEY, embedding float[${dimensions}] distance_metric=cosine)`,
  );
}

/** A vector as the BLOB sqlite-vec and the records table take. */
export function vectorBlob(vector: readonly number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** A BLOB back to numbers. */
export function blobVector(blob: Buffer): number[] {
  return Array.from(new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4));
}

/** The partition a record's vector is searched in. */
export function scopeKey(agency: string, userId: string): string {
  return `${agency}\u0000${userId}`;
}
