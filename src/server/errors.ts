/**
 * The server's one JSON error shape, `{ error: { code, message, path? } }`, and how every failure
 * (validation, auth, limits, unknown names, store and model errors) maps onto it.
 * @module
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import {
  ColloquyError,
  docsUrl,
  notFoundMessage,
  runNotFound,
  type ColloquyErrorCode,
} from '../errors.js';
import { boundText, publicError, publicMessage } from './publicError.js';
import { readBodyText } from './requestHeader.js';

/** The body of every error response. */
export interface ErrorBody {
  error: {
    /**
     * A stable, machine-readable code, e.g. `INVALID_BODY`, `AGENCY_NOT_FOUND`, `STORE_ERROR`
     * (a {@link ColloquyErrorCode}, or `HTTP_<status>` for an error of the HTTP layer itself).
     */
    code: ColloquyErrorCode | `HTTP_${number}`;
    /** What failed, the bad value and the fix. */
    message: string;
    /** The field of the request body that is wrong (dot-separated), for validation errors. */
    path?: string;
  };
}

/**
 * The HTTP status of every error code. A total record: adding a code to {@link ColloquyErrorCode}
 * does not compile until it has a status here.
 */
export const STATUS_BY_CODE: Readonly<Record<ColloquyErrorCode, ContentfulStatusCode>> = {
  // The caller's input or the project's configuration is wrong.
  CONFIG_INVALID: 400,
  AGENCY_INVALID: 400,
  INVALID_BODY: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  // Something the request names does not exist.
  AGENT_NOT_FOUND: 404,
  THREAD_NOT_FOUND: 404,
  CHECKPOINT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  AGENCY_NOT_FOUND: 404,
  CHAT_NOT_FOUND: 404,
  ENSEMBLE_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  RESPONSE_NOT_FOUND: 404,
  TRACE_NOT_FOUND: 404,
  SCHEDULE_NOT_FOUND: 404,
  // The request conflicts with the current state: re-read and retry.
  THREAD_CONFLICT: 409,
  LEASE_BUSY: 409,
  CHECKPOINT_STALE: 409,
  RUN_EXISTS: 409,
  RUN_ACTIVE: 409,
  RUN_NOT_RUNNING: 409,
  RUN_ENSEMBLE_MISSING: 409, // resuming a run whose ensemble the server no longer offers
  SCHEDULE_EXISTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_FIELD: 400,
  HOST_NOT_ALLOWED: 403,
  CROSS_ORIGIN_REFUSED: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // What the request names exists but cannot be used as it is (a file or definition is invalid).
  INSTRUCTIONS_NOT_FOUND: 422,
  SERIALIZATION_ERROR: 422,
  PROFILE_NOT_FOUND: 422,
  ENSEMBLE_INVALID: 422,
  // The server failed.
  INTERNAL_ERROR: 500,
  ENSEMBLE_RUN_ERROR: 500,
  // A backend (store, model provider) failed.
  STORE_ERROR: 502,
  MODEL_ERROR: 502,
  MISSING_API_KEY: 502,
  REPLAY_MISMATCH: 502,
  // The server is stopping or the work was cancelled.
  ABORTED: 503,
  QUEUE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  CHAT_BUSY: 409,
  MAX_TURNS: 500,
  ATTACHMENT_INVALID: 400,
  // The answer does not match the JSON schema the request asked for. 400, not 422: LangChain's
  // ChatOpenAI retries a 422 (six times by default) and no client retries a 400.
  OUTPUT_SCHEMA_MISMATCH: 400,
};

/** Options of {@link HttpError}. */
export interface HttpErrorOptions {
  /** The field of the request body that is wrong (dot-separated), for validation errors. */
  path?: string;
  /** The underlying error, kept for `error.cause`. */
  cause?: unknown;
}

/**
 * A {@link ColloquyError} with an HTTP status, thrown by routes and turned into an {@link ErrorBody}.
 *
 * @example
 * ```ts
 * throw new HttpError(409, 'RUN_ACTIVE', 'Run "r1" is still running. Cancel it first.');
 * ```
 */
export class HttpError extends ColloquyError {
  readonly status: ContentfulStatusCode;

  constructor(
    status: ContentfulStatusCode,
    code: ColloquyErrorCode,
    message: string,
    options: string | HttpErrorOptions = {},
  ) {
    super(code, message, typeof options === 'string' ? { path: options } : options);
    this.status = status;
  }
}

/** The HTTP status of an error code (see {@link STATUS_BY_CODE}). */
export function statusOf(code: ColloquyErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code];
}

/** The error of a failed zod parse: the first issue, with its field path. */
export function validationError(error: z.ZodError, what = 'request body'): HttpError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const where = path === '' ? `the ${what}` : `"${path}" of the ${what}`;
  return new HttpError(
    400,
    'INVALID_BODY',
    `Invalid ${where}: ${issue?.message ?? 'invalid value'}. Fix that field and send the request again (see ${docsUrl('server.md')}).`,
    path,
  );
}

/**
 * Maps any thrown value to a status and an {@link ErrorBody}: model-provider failures are 502
 * `MODEL_ERROR`, and messages never carry secrets or server paths (see `publicError.ts`).
 */
export function toErrorResponse(error: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  const response = errorResponse(publicError(error));
  response.body.error.message = publicMessage(response.body.error.message);
  if (response.body.error.path !== undefined)
    response.body.error.path = boundText(response.body.error.path, 200);
  return response;
}

function errorResponse(error: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  if (error instanceof HttpError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.path !== undefined) body.error.path = error.path;
    return { status: error.status, body };
  }
  if (error instanceof z.ZodError) return errorResponse(validationError(error));
  if (error instanceof HTTPException) {
    return {
      status: error.status as ContentfulStatusCode,
      body: {
        error: { code: `HTTP_${error.status}`, message: error.message || 'Request failed.' },
      },
    };
  }
  if (error instanceof ColloquyError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (typeof error.path === 'string') body.error.path = error.path;
    // A code from another copy of Colloquy may be unknown here.
    return { status: STATUS_BY_CODE[error.code] ?? 500, body };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    body: {
      error: {
        code: 'INTERNAL_ERROR',
        message: `The server failed: ${message}. Check the server log; retry if the cause was transient.`,
      },
    },
  };
}

/** Hono's `onError` handler: every uncaught error becomes a JSON error response. */
export function handleError(error: unknown, c: Context): Response {
  // A Hono middleware that built its own answer (bearer auth: body and WWW-Authenticate) keeps it.
  if (error instanceof HTTPException && error.res) return error.getResponse();
  const { status, body } = toErrorResponse(error);
  return c.json(body, status);
}

/** Hono's `notFound` handler. */
export function handleNotFound(c: Context): Response {
  return c.json<ErrorBody>(
    {
      error: {
        code: 'ROUTE_NOT_FOUND',
        message: `No route ${c.req.method} ${boundText(c.req.path, 200)}. See ${docsUrl('server.md')} for the routes.`,
      },
    },
    404,
  );
}

/**
 * The 413 response of the body limit. It closes the connection (`Connection: close`): the
 * unread rest of the body is still on the socket, so a keep-alive client must not reuse it.
 */
export function payloadTooLarge(c: Context, maxBytes: number): Response {
  c.header('Connection', 'close');
  return c.json<ErrorBody>(
    {
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `The request body is larger than the server's limit of ${maxBytes} bytes. Send a smaller body, or start the server with a larger maxBodyBytes.`,
      },
    },
    413,
  );
}

/** Reads the JSON body and checks it with `schema`; throws a 400 {@link HttpError} otherwise. */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  let raw: unknown;
  const text = await readBodyText(c);
  if (text.trim() === '') {
    raw = {};
  } else {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new HttpError(
        400,
        'INVALID_JSON',
        `The request body is not JSON (${(error as Error).message}). Send a JSON object with content-type: application/json.`,
      );
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** Checks a query string with `schema`; throws a 400 {@link HttpError} otherwise. */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw validationError(parsed.error, 'query string');
  return parsed.data;
}

/** A 404 naming what was not found and what exists (`notFoundError` of `src/errors.ts` is the same, without a status). */
export function notFound(
  code: ColloquyErrorCode,
  what: string,
  known: readonly string[],
  hint: string,
): HttpError {
  return new HttpError(404, code, notFoundMessage(what, known, hint));
}

export { runNotFound };
