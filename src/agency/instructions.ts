/**
 * Instructions may be given inline or as the path of a Markdown file.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ColloquyError } from '../errors.js';

/** Thrown when instructions name a `.md` file that cannot be read. */
export class InstructionsNotFoundError extends ColloquyError {
  constructor(message: string, cause?: unknown) {
    super('INSTRUCTIONS_NOT_FOUND', message, { cause });
  }
}

/**
 * Returns the instructions text: a string ending in `.md` (and containing no newline) is read as
 * a file relative to `cwd`; anything else is returned as it is.
 */
export function resolveInstructions(value: string, owner: string, cwd = process.cwd()): string {
  const looksLikePath = /\.md$/i.test(value.trim()) && !value.includes('\n');
  if (!looksLikePath) return value;
  const path = resolve(cwd, value.trim());
  try {
    if (!statSync(path).isFile()) throw new Error('not a regular file');
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InstructionsNotFoundError(
      `${owner}: instructions file "${value}" could not be read (looked at ${path}: ${(error as Error).message}). ` +
        'Create the file, fix the path (it is relative to the current directory), or pass the instructions as text.',
      error,
    );
  }
}
