/**
 * What a failed SQLite operation becomes: Colloquy's own errors pass through, unparsable JSON in
 * a row is a corrupt file (SerializationError), busy or locked is a transient StoreError, and
 * anything else a StoreError naming the operation and the file.
 * @module
 */
import { ColloquyError, SerializationError } from '../errors.js';
import { storeFailure } from './common.js';

/** The error to throw for `error`, raised by `operation` on the SQLite file at `file`. */
export function sqliteError(file: string, operation: string, error: unknown): Error {
  if (error instanceof ColloquyError) return error;
  if (error instanceof SyntaxError)
    return new SerializationError(
      `SqliteStore: ${operation} on "${file}" read a row that is not valid JSON (${error.message}); the file is corrupt. Restore it from a backup.`,
      { cause: error },
    );
  const code = (error as { code?: unknown }).code;
  const transient =
    typeof code === 'string' &&
    (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
  return storeFailure('sqlite', `${operation} on "${file}"`, error, transient);
}
