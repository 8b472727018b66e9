/**
 * Schema of {@link SqliteStore}: ordered migrations (an entry's position + 1 is the schema version
 * recorded in `PRAGMA user_version`), the item-key layout and the prepared statements.
 *
 * Layout: a thread points at a *segment*; a segment holds the items appended on top of the first
 * `parent_length` visible items of its parent segment. Items live in one rowid table keyed by
 * `segment_id · 2^26 + position`, so a segment's items are one contiguous key range: appends and
 * newest-N reads are B-tree seeks, and forks and resets copy nothing.
 * @module
 */
import type Database from 'better-sqlite3';
import { SerializationError } from '../errors.js';

/** Bits of an item key that hold the position: 2^26 (67M) items per segment. */
export const POSITION_BITS = 26;
/** Key offset of one segment: item key = segment · SEGMENT_SPAN + position. */
export const SEGMENT_SPAN = 2 ** POSITION_BITS;
/** Largest segment id whose keys stay below 2^53 (134M segments). */
export const MAX_SEGMENT = 2 ** (53 - POSITION_BITS) - 1;

/**
 * Schema changelog — never edit a released entry, append a new one.
 * 1: segments, threads, items (key = segment · 2^26 + position), checkpoints.
 * 2: leases (key, owner, expiry in ms since the epoch).
 * 3: leases WITHOUT ROWID: one B-tree keyed by the lease key, so taking and releasing a lease
 *    writes one page, not two (the rowid table and its key index).
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE segments (
     segment_id INTEGER PRIMARY KEY,
     parent_segment INTEGER,
     parent_length INTEGER NOT NULL
   );
   CREATE INDEX segments_by_parent ON segments(parent_segment) WHERE parent_segment IS NOT NULL;
   CREATE TABLE threads (
     thread_id TEXT PRIMARY KEY,
     chat_id TEXT,
     segment_id INTEGER NOT NULL,
     metadata TEXT NOT NULL,
     forked_from_thread TEXT,
     forked_from_version INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX threads_by_chat ON threads(chat_id, thread_id);
   CREATE INDEX threads_by_segment ON threads(segment_id);
   CREATE TABLE items (
     item_key INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   CREATE TABLE checkpoints (
     seq INTEGER PRIMARY KEY,
     checkpoint_id TEXT NOT NULL UNIQUE,
     chat_id TEXT NOT NULL,
     created_ms INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX checkpoints_by_chat ON checkpoints(chat_id, created_ms, seq);`,
  `CREATE TABLE leases (
     lease_key TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     expires_ms INTEGER NOT NULL
   );`,
  `CREATE TABLE leases_by_key (
     lease_key TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     expires_ms INTEGER NOT NULL
   ) WITHOUT ROWID;
   INSERT INTO leases_by_key SELECT lease_key, owner, expires_ms FROM leases;
   DROP TABLE leases;
   ALTER TABLE leases_by_key RENAME TO leases;`,
];

/** Brings a database to the latest schema, one transaction per migration. */
export function migrate(db: Database.Database, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new SerializationError(
      `SqliteStore: "${path}" has schema version ${current}, but this Colloquy knows versions up to ${MIGRATIONS.length}. ` +
        'Upgrade Colloquy, or open a different database file.',
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

/** Row of the `threads` table. */
export interface ThreadRow {
  thread_id: string;
  chat_id: string | null;
  segment_id: number;
  metadata: string;
  forked_from_thread: string | null;
  forked_from_version: number | null;
  created_at: number;
  updated_at: number;
}

/** A prepared statement, named through the module's exported alias so declarations can name it. */
export type Prepared<P extends unknown[] | object = unknown[], R = unknown> = Database.Statement<
  P,
  R
>;

function prep<P extends unknown[] | object = unknown[], R = unknown>(
  db: Database.Database,
  sql: string,
): Prepared<P, R> {
  return db.prepare<P, R>(sql);
}

/** The prepared statements of one connection (spelled out so declarations can name them). */
export interface PreparedStatements {
  thread: Prepared<[string], ThreadRow>;
  threadsAll: Prepared<[], ThreadRow>;
  threadsByChat: Prepared<[string], ThreadRow>;
  insertThread: Prepared<
    [string, string | null, number, string, string | null, number | null, number, number],
    unknown
  >;
  setMetadata: Prepared<[string, number, string], unknown>;
  setSegment: Prepared<[number, number, string], unknown>;
  deleteThread: Prepared<[string], unknown>;
  segmentUsed: Prepared<[number], { one: number }>;
  segment: Prepared<[number], { parent_segment: number | null; parent_length: number }>;
  insertSegment: Prepared<[number | null, number], unknown>;
  deleteSegment: Prepared<[number], unknown>;
  childReach: Prepared<[number], { reach: number | null; n: number }>;
  lastItem: Prepared<[number, number], { item_key: number; at: number }>;
  head: Prepared<[string], { segment_id: number; last_key: number | null; parent_length: number }>;
  appendOne: Prepared<[{ id: string; v: number; at: number; body: string }], unknown>;
  insertItem: Prepared<[number, number, string], unknown>;
  /** Item bodies in a key range, plucked (one column: no row objects). */
  itemRange: Prepared<[number, number], string>;
  deleteItems: Prepared<[number, number], unknown>;
  checkpoint: Prepared<[string], { body: string }>;
  checkpointsByChat: Prepared<[string], { body: string }>;
  insertCheckpoint: Prepared<[string, string, number, string], unknown>;
}

/** The prepared statements of one connection. */
export function prepareStatements(db: Database.Database): PreparedStatements {
  return {
    thread: prep<[string], ThreadRow>(db, 'SELECT * FROM threads WHERE thread_id = ?'),
    threadsAll: prep<[], ThreadRow>(db, 'SELECT * FROM threads ORDER BY thread_id'),
    threadsByChat: prep<[string], ThreadRow>(
      db,
      'SELECT * FROM threads WHERE chat_id = ? ORDER BY thread_id',
    ),
    insertThread: prep<
      [string, string | null, number, string, string | null, number | null, number, number]
    >(db, 'INSERT INTO threads VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    setMetadata: prep<[string, number, string]>(
      db,
      'UPDATE threads SET metadata = ?, updated_at = ? WHERE thread_id = ?',
    ),
    setSegment: prep<[number, number, string]>(
      db,
      'UPDATE threads SET segment_id = ?, updated_at = ? WHERE thread_id = ?',
    ),
    deleteThread: prep<[string]>(db, 'DELETE FROM threads WHERE thread_id = ?'),
    segmentUsed: prep<[number], { one: number }>(
      db,
      'SELECT 1 AS one FROM threads WHERE segment_id = ? LIMIT 1',
    ),
    segment: prep<[number], { parent_segment: number | null; parent_length: number }>(
      db,
      'SELECT parent_segment, parent_length FROM segments WHERE segment_id = ?',
    ),
    insertSegment: prep<[number | null, number]>(
      db,
      'INSERT INTO segments (parent_segment, parent_length) VALUES (?, ?)',
    ),
    deleteSegment: prep<[number]>(db, 'DELETE FROM segments WHERE segment_id = ?'),
    childReach: prep<[number], { reach: number | null; n: number }>(
      db,
      'SELECT max(parent_length) AS reach, count(*) AS n FROM segments WHERE parent_segment = ?',
    ),
    lastItem: prep<[number, number], { item_key: number; at: number }>(
      db,
      'SELECT item_key, at FROM items WHERE item_key >= ? AND item_key < ? ORDER BY item_key DESC LIMIT 1',
    ),
    /** Segment and version inputs of one thread in a single lookup (the append fast path). */
    head: prep<[string], { segment_id: number; last_key: number | null; parent_length: number }>(
      db,
      `SELECT t.segment_id AS segment_id, s.parent_length AS parent_length,
         (SELECT item_key FROM items WHERE item_key >= t.segment_id * ${SEGMENT_SPAN} AND item_key < (t.segment_id + 1) * ${SEGMENT_SPAN}
          ORDER BY item_key DESC LIMIT 1) AS last_key
       FROM threads t JOIN segments s ON s.segment_id = t.segment_id WHERE t.thread_id = ?`,
    ),
    /**
     * The single-item append as one autocommit statement: inserts at `@v` only when the thread
     * exists and its version is exactly `@v` (nothing at or after `@v`, and `@v - 1` present or the
     * segment's base). Zero changes means "take the slow path" (new thread or conflict).
     */
    appendOne: prep<[{ id: string; v: number; at: number; body: string }]>(
      db,
      `INSERT INTO items (item_key, at, body)
       SELECT t.segment_id * ${SEGMENT_SPAN} + @v, @at, @body
       FROM threads t JOIN segments s ON s.segment_id = t.segment_id
       WHERE t.thread_id = @id AND @v >= s.parent_length AND @v < ${SEGMENT_SPAN - 1}
         AND NOT EXISTS (SELECT 1 FROM items WHERE item_key >= t.segment_id * ${SEGMENT_SPAN} + @v AND item_key < (t.segment_id + 1) * ${SEGMENT_SPAN})
         AND (@v = s.parent_length OR EXISTS (SELECT 1 FROM items WHERE item_key = t.segment_id * ${SEGMENT_SPAN} + @v - 1))`,
    ),
    insertItem: prep<[number, number, string]>(
      db,
      'INSERT INTO items (item_key, at, body) VALUES (?, ?, ?)',
    ),
    itemRange: prep<[number, number], string>(
      db,
      'SELECT body FROM items WHERE item_key >= ? AND item_key < ? ORDER BY item_key',
    ).pluck(),
    deleteItems: prep<[number, number]>(
      db,
      'DELETE FROM items WHERE item_key >= ? AND item_key < ?',
    ),
    checkpoint: prep<[string], { body: string }>(
      db,
      'SELECT body FROM checkpoints WHERE checkpoint_id = ?',
    ),
    checkpointsByChat: prep<[string], { body: string }>(
      db,
      'SELECT body FROM checkpoints WHERE chat_id = ? ORDER BY created_ms, seq',
    ),
    insertCheckpoint: prep<[string, string, number, string]>(
      db,
      'INSERT INTO checkpoints (checkpoint_id, chat_id, created_ms, body) VALUES (?, ?, ?, ?)',
    ),
  };
}

/** The statements {@link prepareStatements} returns. */
export type Statements = ReturnType<typeof prepareStatements>;
