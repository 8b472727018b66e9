/**
 * The SQL statements of {@link PostgresStore}, built once per schema. Table names are qualified
 * with the (already validated) schema; every value is a bind parameter.
 * @module
 */
import type { ThreadRecord } from './types.js';

/** A row of `colloquy_threads`. */
export interface ThreadRow {
  thread_id: string;
  chat_id: string | null;
  version: number;
  metadata: string;
  forked_from_thread: string | null;
  forked_from_version: number | null;
  segment_id: string;
  created_at: string;
  updated_at: string;
}

/** Turns a `colloquy_threads` row into the store-neutral record. */
export function threadFromRow(row: ThreadRow): ThreadRecord {
  return {
    threadId: row.thread_id,
    chatId: row.chat_id,
    version: row.version,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    forkedFrom:
      row.forked_from_thread === null
        ? null
        : { threadId: row.forked_from_thread, version: row.forked_from_version! },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every statement the store runs, by purpose. */
export interface PostgresStatements {
  getThread: string;
  /** $1 thread, $2 from, $3 limit (or null), $4 newest (or null) → rows `{ item }` in order. */
  readItems: string;
  /** $1 thread, $2 expected version, $3 item count, $4 now → `{ segment_id }` when it matched. */
  bumpVersion: string;
  threadVersion: string;
  /** $1 segment, $2 first position, $3 text[] of items. */
  insertItems: string;
  /** $1 thread, $2 chat, $3 version, $4 metadata, $5 segment, $6 now; nothing when taken. */
  createThread: string;
  /** $1 thread, $2 chat, $3 version, $4 metadata, $5 forked-from thread, $6 segment, $7 now. */
  insertForked: string;
  setMetadata: string;
  listThreads: string;
  lockForShare: string;
  lockForUpdate: string;
  threadExists: string;
  moveHead: string;
  deleteThread: string;
  insertSegment: string;
  adoptSegment: string;
  disownSegment: string;
  lockSegment: string;
  deleteSegmentItems: string;
  deleteSegment: string;
  releaseSegment: string;
  putCheckpoint: string;
  listCheckpoints: string;
  getCheckpoint: string;
}

/** Builds the statements for the tables in `schema`. */
export function postgresStatements(schema: string): PostgresStatements {
  const threads = `"${schema}".colloquy_threads`;
  const segments = `"${schema}".colloquy_segments`;
  const items = `"${schema}".colloquy_items`;
  const checkpoints = `"${schema}".colloquy_checkpoints`;
  return {
    getThread: `SELECT * FROM ${threads} WHERE thread_id = $1`,
    // One statement, so the version and the segment chain come from one snapshot. The chain walks
    // from the head segment to its parents only while positions below a segment's base are needed.
    readItems: `WITH RECURSIVE t AS (
        SELECT segment_id,
          CASE WHEN $4::int IS NOT NULL THEN GREATEST(version - $4::int, 0) ELSE LEAST($2::int, version) END AS lo,
          CASE WHEN $4::int IS NOT NULL OR $3::int IS NULL THEN version
            ELSE LEAST(version, LEAST($2::int, version) + $3::int) END AS hi
        FROM ${threads} WHERE thread_id = $1
      ), chain AS (
        SELECT s.segment_id, s.parent_segment, s.parent_length AS base, t.hi AS upper, t.lo
        FROM t JOIN ${segments} s ON s.segment_id = t.segment_id
        UNION ALL
        SELECT p.segment_id, p.parent_segment, p.parent_length, LEAST(c.upper, c.base), c.lo
        FROM chain c JOIN ${segments} p ON p.segment_id = c.parent_segment WHERE c.base > c.lo
      )
      -- LATERAL makes each segment's bounds parameters of an index range scan; a plain join lets
      -- the planner read every item of the segment, which made newest-N cost O(thread length).
      SELECT x.item FROM chain c CROSS JOIN LATERAL (
        SELECT i.item, i.position FROM ${items} i
        WHERE i.segment_id = c.segment_id AND i.position >= GREATEST(c.base, c.lo) AND i.position < c.upper
        OFFSET 0 -- a fence: without it the planner flattens the subquery back into a hash join
      ) x
      ORDER BY x.position`,
    bumpVersion: `UPDATE ${threads} SET version = version + $3, updated_at = $4
      WHERE thread_id = $1 AND version = $2 RETURNING segment_id`,
    threadVersion: `SELECT version FROM ${threads} WHERE thread_id = $1`,
    insertItems: `INSERT INTO ${items} (segment_id, position, item)
      SELECT $1, $2 + ord - 1, value FROM unnest($3::text[]) WITH ORDINALITY AS u(value, ord)`,
    createThread: `INSERT INTO ${threads} VALUES ($1, $2, $3, $4, NULL, NULL, $5, $6, $6)
      ON CONFLICT (thread_id) DO NOTHING`,
    insertForked: `INSERT INTO ${threads} VALUES ($1, $2, $3, $4, $5, $3, $6, $7, $7)
      ON CONFLICT (thread_id) DO NOTHING RETURNING *`,
    setMetadata: `UPDATE ${threads} SET metadata = $2, updated_at = $3 WHERE thread_id = $1`,
    listThreads: `SELECT * FROM ${threads} WHERE $1::text IS NULL OR chat_id = $1 ORDER BY thread_id`,
    lockForShare: `SELECT * FROM ${threads} WHERE thread_id = $1 FOR SHARE`,
    lockForUpdate: `SELECT * FROM ${threads} WHERE thread_id = $1 FOR UPDATE`,
    threadExists: `SELECT 1 FROM ${threads} WHERE thread_id = $1`,
    moveHead: `UPDATE ${threads} SET segment_id = $2, version = $3, updated_at = $4 WHERE thread_id = $1`,
    deleteThread: `DELETE FROM ${threads} WHERE thread_id = $1 RETURNING segment_id`,
    insertSegment: `INSERT INTO ${segments} (segment_id, parent_segment, parent_length) VALUES ($1, $2, $3)`,
    adoptSegment: `UPDATE ${segments} SET children = children + 1 WHERE segment_id = $1`,
    disownSegment: `UPDATE ${segments} SET owned = false WHERE segment_id = $1`,
    lockSegment: `SELECT parent_segment, children, owned FROM ${segments} WHERE segment_id = $1 FOR UPDATE`,
    deleteSegmentItems: `DELETE FROM ${items} WHERE segment_id = $1`,
    deleteSegment: `DELETE FROM ${segments} WHERE segment_id = $1`,
    releaseSegment: `UPDATE ${segments} SET children = children - 1 WHERE segment_id = $1`,
    putCheckpoint: `INSERT INTO ${checkpoints} (checkpoint_id, chat_id, body) VALUES ($1, $2, $3)
      ON CONFLICT (checkpoint_id) DO NOTHING`,
    listCheckpoints: `SELECT body FROM ${checkpoints} WHERE chat_id = $1 ORDER BY seq`,
    getCheckpoint: `SELECT body FROM ${checkpoints} WHERE checkpoint_id = $1`,
  };
}
