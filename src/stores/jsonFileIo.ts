/**
 * File-level helpers of {@link JsonFileStore}: safe file names for ids, I/O wrapped into store
 * errors, and parsing of whole JSON files (checkpoints, thread files of schemaVersion 1).
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ColloquyError, SerializationError } from '../errors.js';
import { parseSerializedThread, type SerializedThread } from './callback.js';
import { storeFailure } from './common.js';

/**
 * A file name for an id that is safe on every OS and case-insensitive file system: lowercase
 * letters, digits, `-` and `_` are kept; every other UTF-8 byte becomes `%XX`. Ids whose encoding
 * is longer than 150 characters are shortened with a SHA-256 suffix (the file keeps the full id).
 * Thread logs add an `l` (`.jsonl`).
 */
export function encodeFileName(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[a-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out.length > 150)
    out = `${out.slice(0, 100)}%%${createHash('sha256').update(id).digest('hex')}`;
  return `${out}.json`;
}

/**
 * Runs a file operation; an I/O error becomes a StoreError naming the operation (transient for
 * EBUSY, EAGAIN and EMFILE). Colloquy's own errors pass through unchanged.
 */
export async function fileIo<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ColloquyError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw storeFailure(
      'jsonfile',
      `${operation} (nothing was written)`,
      error,
      code === 'EBUSY' || code === 'EAGAIN' || code === 'EMFILE',
    );
  }
}

/** A `.catch` handler turning ENOENT into `value`. */
export function ifMissing<T>(value: T): (error: NodeJS.ErrnoException) => Promise<T> {
  return (error) => (error.code === 'ENOENT' ? Promise.resolve(value) : Promise.reject(error));
}

/** A file's bytes, or null when it does not exist. */
export function readBytes(file: string, operation: string): Promise<Buffer | null> {
  return fileIo(operation, () => fs.readFile(file).catch(ifMissing(null)));
}

/** File names in `dir` (sorted; none when it is missing), without temp files. */
export async function jsonFileNames(dir: string): Promise<string[]> {
  const names = await fileIo(`list "${path.basename(dir)}"`, () =>
    fs.readdir(dir).catch(ifMissing([] as string[])),
  );
  // Skips temp files: ours (`.x.jsonl.<hex>.tmp`, ending in .tmp) and write-file-atomic's (`x.json.<hash>`).
  return names.filter((n) => /\.jsonl?$/.test(n)).sort();
}

/** Parses a whole JSON file; invalid JSON is a SerializationError naming the file and the fix. */
export function parseJsonFile(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SerializationError(
      `JsonFileStore: "${file}" is not valid JSON (${(error as Error).message}). Restore or remove the file.`,
      { cause: error },
    );
  }
}

/** A thread file of schemaVersion 1 (one JSON document). */
export function parseLegacyThread(
  bytes: Buffer,
  file: string,
  threadId?: string,
): SerializedThread {
  return parseSerializedThread(parseJsonFile(bytes, file), `JsonFileStore "${file}"`, threadId);
}
