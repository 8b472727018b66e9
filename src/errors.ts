/**
 * Errors raised by Colloquy. Every error has a stable `code` so that callers can branch on it
 * without parsing messages, and every message says what failed, the bad value, and the fix.
 * @module
 */

/**
 * Stable error codes. Add new codes at the end of their group; never rename one. The server maps
 * every code to an HTTP status (`colloquy/server`), so the compiler asks for a status for each new one.
 */
export type ColloquyErrorCode = LibraryErrorCode | RequestErrorCode;

/** Codes of the errors the library raises. */
export type LibraryErrorCode =
  | 'CONFIG_INVALID'
  | 'AGENCY_INVALID'
  | 'AGENT_NOT_FOUND'
  | 'INSTRUCTIONS_NOT_FOUND'
  | 'THREAD_CONFLICT'
  | 'THREAD_NOT_FOUND'
  | 'CHECKPOINT_NOT_FOUND'
  | 'STORE_ERROR'
  | 'SERIALIZATION_ERROR'
  | 'MODEL_ERROR'
  | 'MISSING_API_KEY'
  | 'PROFILE_NOT_FOUND'
  | 'ENSEMBLE_INVALID'
  | 'ENSEMBLE_RUN_ERROR'
  | 'REPLAY_MISMATCH'
  | 'ABORTED'
  | 'CHECKPOINT_STALE'
  | 'LEASE_BUSY'
  | 'TRACE_NOT_FOUND'
  | 'CHAT_BUSY'
  | 'MAX_TURNS'
  | 'ATTACHMENT_INVALID'
  | 'QUEUE_UNAVAILABLE';

/** Codes of the errors only the HTTP server raises, about one request. */
export type RequestErrorCode =
  | 'INVALID_BODY'
  | 'INVALID_JSON'
  | 'UNAUTHORIZED'
  | 'ROUTE_NOT_FOUND'
  | 'AGENCY_NOT_FOUND'
  | 'CHAT_NOT_FOUND'
  | 'ENSEMBLE_NOT_FOUND'
  | 'RUN_NOT_FOUND'
  | 'RUN_EXISTS'
  | 'RUN_ACTIVE'
  | 'RUN_NOT_RUNNING'
  | 'RUN_ENSEMBLE_MISSING'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_FIELD'
  | 'HOST_NOT_ALLOWED'
  | 'CROSS_ORIGIN_REFUSED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'OUTPUT_SCHEMA_MISMATCH'
  | 'RESPONSE_NOT_FOUND'
  | 'SHUTTING_DOWN'
  | 'SCHEDULE_EXISTS'
  | 'SCHEDULE_NOT_FOUND'
  | 'INTERNAL_ERROR';

/** Where the documentation lives; error messages link to its pages by URL (docs are not shipped). */
export const DOCS_URL = 'https://github.com/colloquy-dev/colloquy/blob/main/docs';

/**
 * The URL of a documentation page, for error messages.
 *
 * @example
 * ```ts
 * docsUrl('server.md'); // 'https://github.com/colloquy-dev/colloquy/blob/main/docs/server.md'
 * ```
 */
export function docsUrl(page: string): string {
  return `${DOCS_URL}/${page}`;
}

/** Options shared by every Colloquy error. */
export interface ColloquyErrorOptions {
  /** The underlying error, kept for `error.cause`. */
  cause?: unknown;
  /** The input field that is wrong (dot-separated), when one is (the server's `error.path`). */
  path?: string;
}

/** Base class of every error Colloquy throws on purpose. */
export class ColloquyError extends Error {
  /** A stable, machine-readable code. */
  readonly code: ColloquyErrorCode;
  /** The input field that is wrong (dot-separated), when one is. */
  readonly path: string | undefined;

  constructor(code: ColloquyErrorCode, message: string, options: ColloquyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.path = options.path;
  }
}

/**
 * A `*_NOT_FOUND` error naming what was not found and what exists (at most 20 names), then the
 * fix. Executors and stores throw it; the server maps its code to 404.
 */
export function notFoundError(
  code: ColloquyErrorCode,
  what: string,
  known: readonly string[],
  hint: string,
): ColloquyError {
  return new ColloquyError(code, notFoundMessage(what, known, hint));
}

/** The message of {@link notFoundError}. */
export function notFoundMessage(what: string, known: readonly string[], hint: string): string {
  const list =
    known.length > 0
      ? ` Known: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''}.`
      : '';
  return `${what} was not found.${list} ${hint}`.trim();
}

/** `RUN_NOT_FOUND` for an ensemble run id. */
export function runNotFound(runId: string): ColloquyError {
  return notFoundError(
    'RUN_NOT_FOUND',
    `Run "${runId}"`,
    [],
    'Check the run id (POST /ensembles/:name/runs returns it).',
  );
}

/** The caller's input or configuration is wrong; retrying the same call will fail again. */
export class ConfigError extends ColloquyError {
  constructor(message: string, options?: ColloquyErrorOptions) {
    super('CONFIG_INVALID', message, options);
  }
}

/** An agency was declared wrongly (duplicate names, bad flows, unknown recipient). */
export class AgencyConfigError extends ColloquyError {
  constructor(message: string, options?: ColloquyErrorOptions) {
    super('AGENCY_INVALID', message, options);
  }
}

/**
 * An append named a thread version that is no longer current: another writer appended first.
 * Re-read the thread and append again.
 */
export class ConflictError extends ColloquyError {
  readonly threadId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number;

  constructor(threadId: string, expectedVersion: number, actualVersion: number) {
    super(
      'THREAD_CONFLICT',
      `Thread "${threadId}" is at version ${actualVersion}, but the append expected version ${expectedVersion}. ` +
        'Another writer appended first: re-read the thread and retry the append.',
    );
    this.threadId = threadId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/** A store operation failed (I/O, connection, corrupt record). Never swallowed. */
export class StoreError extends ColloquyError {
  /** Whether retrying the same operation may succeed (connection reset, busy database). */
  readonly transient: boolean;

  constructor(message: string, options: ColloquyErrorOptions & { transient?: boolean } = {}) {
    super('STORE_ERROR', message, options);
    this.transient = options.transient ?? false;
  }
}

/** Data read from disk or the wire does not match the expected format or version. */
export class SerializationError extends ColloquyError {
  constructor(message: string, options?: ColloquyErrorOptions) {
    super('SERIALIZATION_ERROR', message, options);
  }
}

/** A plain description of an error, safe to serialize (events, SSE, saved run state). */
export interface ErrorInfo {
  name: string;
  message: string;
  /** The error's `code` when it has a string one (every {@link ColloquyError} has). */
  code?: string;
}

/**
 * Turns any thrown value into an {@link ErrorInfo}.
 *
 * @example
 * ```ts
 * errorInfo(new ConfigError('bad')); // { name: 'ConfigError', message: 'bad', code: 'CONFIG_INVALID' }
 * ```
 */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}
