/**
 * Reading SqliteStore rows: a thread's version derived from its segment's last item, its record,
 * and its visible items gathered from its segment chain (see `sqliteSchema.ts` for the layout).
 * @module
 */
import { StoreError } from '../errors.js';
import type { ThreadItem } from './item.js';
import { SEGMENT_SPAN, type Statements, type ThreadRow } from './sqliteSchema.js';
import type { ThreadRecord } from './types.js';

/** A thread's row plus its derived version and last-append time. */
export interface Loaded {
  row: ThreadRow;
  version: number;
  lastAt: number;
}

function missingSegment(seg: number, threadId: string, path: string): StoreError {
  return new StoreError(
    `SqliteStore: segment ${seg} of thread "${threadId}" is missing in "${path}"; the file is corrupt. Restore it from a backup.`,
  );
}

/** Derives the version from the segment's last item (no per-append update of the thread row). */
export function completeRow(sql: Statements, path: string, row: ThreadRow): Loaded {
  const seg = row.segment_id;
  const last = sql.lastItem.get(seg * SEGMENT_SPAN, (seg + 1) * SEGMENT_SPAN);
  if (last) return { row, version: last.item_key - seg * SEGMENT_SPAN + 1, lastAt: last.at };
  const info = sql.segment.get(seg);
  if (!info) throw missingSegment(seg, row.thread_id, path);
  return { row, version: info.parent_length, lastAt: 0 };
}

/** Visible items `start..end` of a loaded thread, walking its segment chain; call in a transaction. */
export function readVisible(
  sql: Statements,
  path: string,
  loaded: Loaded,
  start: number,
  end: number,
): ThreadItem[] {
  // Newest segment first; parsed straight into one array (a 10k-item load is mostly JSON.parse).
  const chunks: string[][] = [];
  let visibleEnd = end;
  for (let seg: number | null = loaded.row.segment_id; seg !== null && visibleEnd > start;) {
    const info = sql.segment.get(seg);
    if (!info) throw missingSegment(seg, loaded.row.thread_id, path);
    const lo = Math.max(start, info.parent_length);
    if (lo < visibleEnd)
      chunks.push(sql.itemRange.all(seg * SEGMENT_SPAN + lo, seg * SEGMENT_SPAN + visibleEnd));
    visibleEnd = Math.min(visibleEnd, info.parent_length);
    seg = info.parent_segment;
  }
  const items: ThreadItem[] = [];
  for (let c = chunks.length - 1; c >= 0; c--)
    for (const body of chunks[c]!) items.push(JSON.parse(body) as ThreadItem);
  return items;
}

/** The public record of a loaded thread. */
export function toRecord({ row, version, lastAt }: Loaded): ThreadRecord {
  return {
    threadId: row.thread_id,
    chatId: row.chat_id,
    version,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    forkedFrom:
      row.forked_from_thread === null
        ? null
        : { threadId: row.forked_from_thread, version: row.forked_from_version ?? 0 },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(Math.max(row.updated_at, lastAt)).toISOString(),
  };
}
