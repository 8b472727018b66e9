/**
 * What {@link BaseStore} hands its primitives once it has checked a call's arguments: serialized
 * items and metadata, and for forks and rollbacks the one check a backend makes inside its own
 * transaction (against the versions it reads there), with the same errors on every backend.
 * @module
 */
import { ConfigError, SerializationError } from '../errors.js';
import { checkFork, checkRollback, threadNotFound } from './common.js';
import type { AppendOptions } from './types.js';

/** One checked entry of `appendMany`: items and metadata as JSON text. */
export interface BatchEntry {
  threadId: string;
  /** The items, each as its JSON text. */
  bodies: string[];
  options: AppendOptions;
  /** The new metadata as JSON text, if the entry carries some. */
  metadata: string | undefined;
}

/** A checked checkpoint, ready to keep. */
export interface CheckpointEntry {
  checkpointId: string;
  chatId: string;
  /** `createdAt` in ms since the epoch (checked to be a date). */
  createdMs: number;
  /** The whole checkpoint as JSON text: what `getCheckpoint` returns, parsed. */
  body: string;
}

/** A checked fork: ids are well-formed and metadata is JSON; the rest is checked by {@link check}. */
export class ForkRequest {
  /**
   * @param upTo as given (undefined: every item); {@link check} tells whether it is in range.
   * @param chatId the new thread's chat; `undefined` keeps the source's.
   * @param metadata the new thread's metadata as JSON text; `undefined` copies the source's.
   */
  constructor(
    readonly sourceId: string,
    readonly targetId: string,
    readonly upTo: number | undefined,
    readonly chatId: string | null | undefined,
    readonly metadata: string | undefined,
  ) {}

  /**
   * Checks the fork against what the backend read in its transaction and returns the number of
   * items to inherit. Throws `THREAD_NOT_FOUND` when the source is missing (`sourceVersion`
   * null), `CONFIG_INVALID` when `upTo` is outside `0..sourceVersion` or the target exists.
   */
  check(sourceVersion: number | null, targetExists: boolean): number {
    if (sourceVersion === null)
      throw threadNotFound(`fork("${this.sourceId}" → "${this.targetId}")`, this.sourceId);
    const upTo = this.upTo ?? sourceVersion;
    checkFork(this.sourceId, this.targetId, upTo, sourceVersion, targetExists);
    return upTo;
  }
}

/** A checked rollback: the thread id is well-formed and `archiveId` is fresh. */
export class RollbackRequest {
  constructor(
    readonly threadId: string,
    /** The version to roll back to, as given; {@link check} tells whether it is in range. */
    readonly version: number,
    /** The id the archive thread takes (`<threadId>~reset~<unique>`). */
    readonly archiveId: string,
  ) {}

  /**
   * Checks the rollback against the thread's version read in the backend's transaction. Throws
   * `THREAD_NOT_FOUND` (current null) or `CONFIG_INVALID` (version outside `0..current`); returns
   * false when there is nothing to cut (the version is the current one), true otherwise.
   */
  check(current: number | null): boolean {
    if (current === null) throw threadNotFound(`rollback("${this.threadId}")`, this.threadId);
    checkRollback(this.threadId, this.version, current);
    return this.version !== current;
  }
}

/** Checks an `expectedVersion`; throws `ConfigError` unless it is a whole number ≥ 0. */
export function checkExpectedVersion(operation: string, threadId: string, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return;
  throw new ConfigError(
    `${operation}("${threadId}"): expectedVersion is ${String(value)}, but it must be a whole number ≥ 0. ` +
      'Pass the version you last read (0 for a new thread).',
  );
}

/** Metadata as JSON text; throws unless it is a plain JSON object. */
export function serializeMetadata(operation: string, threadId: string, metadata: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(metadata);
  } catch (error) {
    throw new SerializationError(
      `${operation}("${threadId}"): the metadata cannot be serialized to JSON (${(error as Error).message}). ` +
        'Metadata must be plain JSON: no BigInt, functions or circular references.',
      { cause: error },
    );
  }
  if (text === undefined || text[0] !== '{') {
    throw new ConfigError(
      `${operation}("${threadId}"): the metadata is ${text === undefined ? String(metadata) : text.slice(0, 80)}, but it must be a JSON object. ` +
        'Pass an object such as { step: 1 } (or {} for none).',
    );
  }
  return text;
}
