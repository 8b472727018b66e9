/**
 * Instructions may be given inline or as the path of a Markdown file.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ColloquyError } from '../errors.js';

/** Thrown when instructions name a `.md` file that cannot be read. */
export class InstructionsNotFoundError extends ColloquyError {
  constructor(message: string, cause?: unknown) {
    super('INSTRUCTIONS_NOT_FOUND', message, { cause });
  }
}

/**
 * Returns the instructions text. A one-line value ending in `.md` that names an existing file is
 * read from it (relative to `cwd`). One that names no file is an error when it looks like a path
 * (no spaces), and plain text otherwise, so that "Summarise notes.md" stays an instruction.
 */
export function resolveInstructions(value: string, owner: string, cwd = process.cwd()): string {
  const trimmed = value.trim();
  if (!/\.md$/i.test(trimmed) || trimmed.includes('\n')) return value;
  const path = resolve(cwd, trimmed);
  if (/\s/.test(trimmed) && !existsSync(path)) return value;
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
