/**
 * Helpers shared by the store backends: range and argument checks with uniform errors, archive
 * ids, and JSON copies. Backends built elsewhere may use them to behave like the reference.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { ColloquyError, ConfigError, SerializationError, StoreError } from '../errors.js';
import type { ThreadItem } from './item.js';
import type { Checkpoint, ReadRange } from './types.js';

/** A half-open position range `[start, end)` within a thread. */
export interface Span {
  start: number;
  end: number;
}

function checkCount(value: number | undefined, name: string, threadId: string): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigError(
      `readItems("${threadId}"): range.${name} is ${String(value)}, but it must be a non-negative integer. ` +
        `Pass a whole number ≥ 0 or omit ${name}.`,
    );
  }
}

/** Checks a {@link ReadRange}'s values; throws `ConfigError` on a negative or fractional one. */
export function checkRange(threadId: string, range: ReadRange = {}): void {
  checkCount(range.from, 'from', threadId);
  checkCount(range.limit, 'limit', threadId);
  checkCount(range.newest, 'newest', threadId);
}

/** The positions a checked {@link ReadRange} selects in a thread of `version` items. */
export function rangeSpan(version: number, range: ReadRange = {}): Span {
  if (range.newest !== undefined)
    return { start: Math.max(0, version - range.newest), end: version };
  const start = Math.min(range.from ?? 0, version);
  const end = range.limit === undefined ? version : Math.min(version, start + range.limit);
  return { start, end };
}

/** Resolves a {@link ReadRange} against a thread of `version` items; throws `ConfigError` on bad values. */
export function resolveRange(threadId: string, version: number, range: ReadRange = {}): Span {
  checkRange(threadId, range);
  return rangeSpan(version, range);
}

/** The error for an operation on a thread that does not exist (code `THREAD_NOT_FOUND`). */
export function threadNotFound(operation: string, threadId: string): ColloquyError {
  return new ColloquyError(
    'THREAD_NOT_FOUND',
    `${operation}: thread "${threadId}" does not exist. Check the thread id, or create the thread by appending to it first.`,
  );
}

/** Checks a fork's `upTo` and that the target is free; throws `ConfigError` otherwise. */
export function checkFork(
  sourceId: string,
  targetId: string,
  upTo: number,
  version: number,
  targetExists: boolean,
): void {
  if (!Number.isInteger(upTo) || upTo < 0 || upTo > version) {
    throw new ConfigError(
      `fork("${sourceId}" → "${targetId}"): upTo is ${String(upTo)}, but the source has ${version} items. ` +
        `Pass an integer between 0 and ${version}, or omit upTo to inherit every item.`,
    );
  }
  if (targetExists) {
    throw new ConfigError(
      `fork("${sourceId}" → "${targetId}"): target thread "${targetId}" already exists. ` +
        'Pick a new thread id, or delete the existing thread first.',
    );
  }
}

/** Checks a rollback's target version; throws `ConfigError` when it is not in `0..version`. */
export function checkRollback(threadId: string, target: number, version: number): void {
  if (!Number.isInteger(target) || target < 0 || target > version) {
    throw new ConfigError(
      `rollback("${threadId}"): version ${String(target)} is out of range; the thread has ${version} items. ` +
        `Pass an integer between 0 and ${version}.`,
    );
  }
}

/** The error for a checkpoint id that is already taken. */
export function checkpointExists(checkpointId: string): ConfigError {
  return new ConfigError(
    `putCheckpoint: checkpoint "${checkpointId}" already exists. Checkpoints are immutable: use a new checkpointId.`,
  );
}

/** Socket and DNS error codes after which retrying a networked store's operation may succeed. */
export const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What separates a thread id from its archive suffix in {@link archiveThreadId}. */
export const ARCHIVE_MARK = '~reset~';

/**
 * Whether a thread id names the archive a rollback left behind (see {@link archiveThreadId}). Thread
 * ids made by `threadIdFor` escape `~`, so an agent's name can never look like an archive.
 */
export function isArchiveThreadId(threadId: string): boolean {
  return threadId.includes(ARCHIVE_MARK);
}

/** A fresh id for the archive thread a rollback leaves behind: `<threadId>~reset~<unique>`. */
export function archiveThreadId(threadId: string): string {
  return `${threadId}~reset~${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/** A deep copy through JSON, so that stores hold exactly what a durable backend would. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Wraps an unexpected backend failure in a `StoreError` naming the operation (never swallowed). */
export function storeFailure(
  kind: string,
  operation: string,
  error: unknown,
  transient = false,
): StoreError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreError(
    `${kind} store: ${operation} failed: ${reason}. ` +
      (transient
        ? 'The failure is transient: retry, or wrap the store with withRetry().'
        : 'Check the store path, permissions and disk space.'),
    { cause: error, transient },
  );
}

/** Serializes one item for storage; throws `SerializationError` when it is not plain JSON. */
export function serializeItem(threadId: string, item: ThreadItem): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(item);
  } catch (error) {
    throw new SerializationError(
      `append("${threadId}"): item "${String(item?.id)}" cannot be serialized to JSON (${(error as Error).message}). ` +
        'Items must be plain JSON: no BigInt, functions or circular references.',
      { cause: error },
    );
  }
  if (typeof text !== 'string' || typeof item?.id !== 'string') {
    throw new SerializationError(
      `append("${threadId}"): got ${text === undefined ? String(item) : text.slice(0, 80)} instead of a ThreadItem. ` +
        'Pass objects of the form { id: string, item, meta? }.',
    );
  }
  return text;
}

/** A checkpoint's `createdAt` in ms; throws `ConfigError` when it is not a date. */
export function checkpointTime(checkpoint: Checkpoint): number {
  const ms = Date.parse(checkpoint.createdAt);
  if (Number.isNaN(ms)) {
    throw new ConfigError(
      `putCheckpoint("${checkpoint.checkpointId}"): createdAt "${checkpoint.createdAt}" is not a date. ` +
        'Pass an ISO-8601 timestamp, e.g. new Date().toISOString().',
    );
  }
  return ms;
}
