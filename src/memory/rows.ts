/**
 * Rows of memory's SQL tables (SQLite and Postgres use the same columns) turned into records.
 * @module
 */
import { blobVector, vectorBlob } from './sqliteSchema.js';
import type { MemoryEntry, SummaryRecord, WorkingMemoryVersion } from './types.js';

/** A row of `memory_records` / `colloquy_memory_records`. */
export interface RecordRow {
  id: number | string;
  item_id: string;
  thread_id: string;
  agency: string;
  user_id: string;
  chat_id: string;
  position: number;
  role: 'user' | 'assistant';
  agent: string;
  text: string;
  model: string;
  dimensions: number;
  created_at: string;
  vector: Buffer;
}

/**
 * An entry's record columns in table order (item_id … created_at, vector as a blob): the values
 * both SQL backends insert, so the two cannot list them differently.
 */
export function recordValues(e: MemoryEntry, blob: Buffer = vectorBlob(e.vector)): unknown[] {
  return [
    e.itemId,
    e.threadId,
    e.agency,
    e.userId,
    e.chatId,
    e.position,
    e.role,
    e.agent,
    e.text,
    e.model,
    e.dimensions,
    e.createdAt,
    blob,
  ];
}

/** A record row as an entry (vector decoded). */
export function entryOfRow(row: RecordRow): MemoryEntry {
  return {
    itemId: row.item_id,
    threadId: row.thread_id,
    agency: row.agency,
    userId: row.user_id,
    chatId: row.chat_id,
    position: row.position,
    role: row.role,
    agent: row.agent,
    text: row.text,
    model: row.model,
    dimensions: row.dimensions,
    createdAt: row.created_at,
    vector: blobVector(row.vector),
  };
}

/** A row of the working-memory table. */
export function workingOfRow(row: Record<string, unknown>): WorkingMemoryVersion {
  return {
    agency: row.agency as string,
    userId: row.user_id as string,
    version: Number(row.version),
    content: row.content as string,
    createdAt: row.created_at as string,
  };
}

/** A row of the summaries table. */
export function summaryOfRow(row: Record<string, unknown>): SummaryRecord {
  return {
    threadId: row.thread_id as string,
    position: Number(row.position),
    headId: row.head_id as string,
    agency: (row.agency as string | null) ?? null,
    userId: (row.user_id as string | null) ?? null,
    text: row.text as string,
    createdAt: row.created_at as string,
  };
}
