/**
 * A deadline on importing a user's module. A module whose top-level `await` never settles (a
 * connection that never opens, a prompt, a promise nobody resolves) would otherwise hang
 * `colloquy chat`, `dev` and `serve` forever, or, with nothing else keeping Node alive, end the
 * process with exit code 13 and no message. The deadline's timer keeps the process alive until
 * it fires with an error naming the module.
 * @module
 */
import { readEnv } from '../env.js';
import { ConfigError } from '../errors.js';

/** The default deadline of one module import, in ms. */
export const DEFAULT_IMPORT_TIMEOUT_MS = 30_000;

/** The import deadline: `given`, else `$COLLOQUY_IMPORT_TIMEOUT_MS` (see `env.ts`), else the default. */
export function importTimeoutMs(
  given: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (given === undefined)
    return readEnv('COLLOQUY_IMPORT_TIMEOUT_MS', env) ?? DEFAULT_IMPORT_TIMEOUT_MS;
  if (!Number.isFinite(given) || given <= 0) {
    throw new ConfigError(
      `importTimeoutMs must be a positive number of ms (got "${given}"). Pass e.g. 30000.`,
    );
  }
  return given;
}

/** The error of an import that missed its deadline. */
export class ImportTimeoutError extends ConfigError {
  constructor(
    readonly file: string,
    readonly timeoutMs: number,
  ) {
    super(
      `Importing the module ${file} did not finish within ${timeoutMs} ms: its top-level code (or that of a module it imports) ` +
        'is still waiting on an `await` that never settled, such as a connection, a network call or a prompt. ' +
        `Make every top-level await settle (or move the work into a function called later), or raise COLLOQUY_IMPORT_TIMEOUT_MS.`,
    );
    this.name = 'ImportTimeoutError';
  }
}

/** `loading`, or an {@link ImportTimeoutError} naming `file` after `timeoutMs`. */
export function withImportDeadline<T>(
  loading: Promise<T>,
  file: string,
  timeoutMs: number,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ImportTimeoutError(file, timeoutMs)), timeoutMs);
  });
  return Promise.race([loading, deadline]).finally(() => clearTimeout(timer));
}
