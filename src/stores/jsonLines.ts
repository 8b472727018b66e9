/**
 * The thread file format of {@link JsonFileStore}: JSON Lines, one record per line, appended.
 *
 * ```text
 * {"op":"thread","schemaVersion":2,"threadId":"t","chatId":null,"metadata":{},"forkedFrom":null,"createdAt":"…"}
 * {"op":"append","items":[{"id":"a","item":{…}}],"at":"…"}      one line per append (atomic)
 * {"op":"metadata","metadata":{…},"at":"…"}                      replaces the metadata
 * ```
 *
 * A line only counts once its newline is written: a torn last line (a crash or a full disk in the
 * middle of an append) is ignored, so a thread reads back with or without a whole append.
 *
 * Changelog of `schemaVersion`: 1 — one JSON document per thread (`<id>.json`, a
 * {@link SerializedThread}), still read and migrated on the first write; 2 — JSON Lines
 * (`<id>.jsonl`).
 * @module
 */
import { z } from 'zod';
import { SerializationError } from '../errors.js';
import type { SerializedThread } from './callback.js';
import type { ThreadItem } from './item.js';

/** The current thread file `schemaVersion`. */
export const THREAD_LOG_VERSION = 2;

const itemSchema = z.looseObject({ id: z.string(), item: z.looseObject({}) });
const headerSchema = z.object({
  op: z.literal('thread'),
  schemaVersion: z.literal(THREAD_LOG_VERSION),
  threadId: z.string(),
  chatId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  forkedFrom: z
    .object({ threadId: z.string(), version: z.number().int().nonnegative() })
    .nullable(),
  createdAt: z.string(),
});
const recordSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('append'), items: z.array(itemSchema), at: z.string() }),
  z.object({
    op: z.literal('metadata'),
    metadata: z.record(z.string(), z.unknown()),
    at: z.string(),
  }),
]);

/** A thread read from its log, with what the store needs to append to it. */
export interface ThreadLog {
  thread: SerializedThread;
  /** Bytes of complete lines: appends go here (a torn tail after it is cut first). */
  validBytes: number;
  /** Bytes of metadata lines superseded by a later one (compaction drops them). */
  deadBytes: number;
  /** Bytes of the latest metadata line (0 when the header holds the metadata). */
  metadataBytes: number;
}

/** One line of the log: `value` as JSON plus a newline. */
export function logLine(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
}

/** The header line of a thread. */
export function headerLine(thread: SerializedThread): Buffer {
  return logLine({
    op: 'thread',
    schemaVersion: THREAD_LOG_VERSION,
    threadId: thread.threadId,
    chatId: thread.chatId,
    metadata: thread.metadata,
    forkedFrom: thread.forkedFrom,
    createdAt: thread.createdAt,
  });
}

/** The line of one append. */
export function appendLine(items: ThreadItem[], at: string): Buffer {
  return logLine({ op: 'append', items, at });
}

/** The line of a metadata change. */
export function metadataLine(metadata: Record<string, unknown>, at: string): Buffer {
  return logLine({ op: 'metadata', metadata, at });
}

/** A whole log holding `thread` (header, then its items as one append line). */
export function serializeLog(thread: SerializedThread): Buffer {
  const parts = [headerLine(thread)];
  if (thread.items.length > 0) parts.push(appendLine(thread.items, thread.updatedAt));
  return Buffer.concat(parts);
}

function parseLine(line: string, file: string, lineNo: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new SerializationError(
      `JsonFileStore: line ${lineNo} of "${file}" is not valid JSON (${(error as Error).message}). ` +
        'Only the last line may be torn; restore the file from a backup or remove that line.',
      { cause: error },
    );
  }
}

function invalid(file: string, lineNo: number, error: z.ZodError): SerializationError {
  return new SerializationError(
    `JsonFileStore: line ${lineNo} of "${file}" is not a thread log record (schemaVersion ${THREAD_LOG_VERSION}): ` +
      `${z.prettifyError(error)}. Restore the file from a backup or remove the line.`,
    { cause: error },
  );
}

function isAppendRecord(value: unknown): value is { items: ThreadItem[]; at: string } {
  const record = value as { op?: unknown; items?: unknown; at?: unknown } | null;
  return (
    record !== null &&
    typeof record === 'object' &&
    record.op === 'append' &&
    typeof record.at === 'string' &&
    Array.isArray(record.items) &&
    record.items.every((entry: { id?: unknown; item?: unknown } | null) => {
      return (
        entry !== null &&
        typeof entry === 'object' &&
        typeof entry.id === 'string' &&
        typeof entry.item === 'object' &&
        entry.item !== null &&
        !Array.isArray(entry.item)
      );
    })
  );
}

/**
 * Parses a thread log; `null` when it holds no complete header line (an empty file, or a create
 * torn before its first newline). Throws `SerializationError` naming the file and line otherwise.
 */
export function parseLog(bytes: Buffer, file: string, threadId?: string): ThreadLog | null {
  const validBytes = bytes.lastIndexOf(0x0a) + 1;
  if (validBytes === 0) return null;
  const lines = bytes
    .subarray(0, validBytes - 1)
    .toString('utf8')
    .split('\n');
  const header = headerSchema.safeParse(parseLine(lines[0]!, file, 1));
  if (!header.success) throw invalid(file, 1, header.error);
  if (threadId !== undefined && header.data.threadId !== threadId) {
    throw new SerializationError(
      `JsonFileStore: "${file}" holds thread "${header.data.threadId}", but "${threadId}" was asked for. Move the file back to its own name.`,
    );
  }
  const { op: _op, schemaVersion: _v, ...rest } = header.data;
  const thread: SerializedThread = {
    schemaVersion: 1,
    ...rest,
    version: 0,
    items: [],
    updatedAt: header.data.createdAt,
  };
  let deadBytes = 0;
  let metadataBytes = 0;
  for (let n = 1; n < lines.length; n++) {
    const value = parseLine(lines[n]!, file, n + 1);
    // The common record, checked by hand: zod per item would dominate the read time.
    if (isAppendRecord(value)) {
      for (const item of value.items) thread.items.push(item);
      thread.updatedAt = value.at;
      continue;
    }
    const parsed = recordSchema.safeParse(value);
    if (!parsed.success) throw invalid(file, n + 1, parsed.error);
    const record = parsed.data;
    if (record.op === 'append') {
      for (const item of record.items) thread.items.push(item as unknown as ThreadItem);
    } else {
      deadBytes += metadataBytes;
      metadataBytes = Buffer.byteLength(lines[n]!, 'utf8') + 1;
      thread.metadata = record.metadata;
    }
    thread.updatedAt = record.at;
  }
  thread.version = thread.items.length;
  return { thread, validBytes, deadBytes, metadataBytes };
}
