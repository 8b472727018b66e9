/**
 * The server's one JSON error shape, `{ error: { code, message, path? } }`, and how every failure
 * (validation, auth, limits, unknown names, store and model errors) maps onto it.
 * @module
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ColloquyError } from '../errors.js';

/** The body of every error response. */
export interface ErrorBody {
  error: {
    /** A stable, machine-readable code, e.g. `INVALID_BODY`, `AGENCY_NOT_FOUND`, `STORE_ERROR`. */
    code: string;
    /** What failed, the bad value and the fix. */
    message: string;
    /** The field of the request body that is wrong (dot-separated), for validation errors. */
    path?: string;
  };
}

/** An error with an HTTP status, thrown by routes and turned into an {@link ErrorBody}. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly path: string | undefined;

  constructor(status: ContentfulStatusCode, code: string, message: string, path?: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

/** HTTP status of each library error code; codes not listed are 500. */
const STATUS_BY_CODE: Partial<Record<string, ContentfulStatusCode>> = {
  CONFIG_INVALID: 400,
  AGENCY_INVALID: 400,
  AGENT_NOT_FOUND: 404,
  THREAD_NOT_FOUND: 404,
  CHECKPOINT_NOT_FOUND: 404,
  THREAD_CONFLICT: 409,
  LEASE_BUSY: 409,
  STORE_ERROR: 502,
  MODEL_ERROR: 502,
  MISSING_API_KEY: 502,
  ABORTED: 503,
};

/** The error of a failed zod parse: the first issue, with its field path. */
export function validationError(error: z.ZodError, what = 'request body'): HttpError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const where = path === '' ? `the ${what}` : `"${path}" of the ${what}`;
  return new HttpError(
    400,
    'INVALID_BODY',
    `Invalid ${where}: ${issue?.message ?? 'invalid value'}. Fix that field and send the request again (see docs/server.md).`,
    path,
  );
}

/** Maps any thrown value to a status and an {@link ErrorBody}. */
export function toErrorResponse(error: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  if (error instanceof HttpError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.path !== undefined) body.error.path = error.path;
    return { status: error.status, body };
  }
  if (error instanceof z.ZodError) return toErrorResponse(validationError(error));
  if (error instanceof HTTPException) {
    return {
      status: error.status as ContentfulStatusCode,
      body: {
        error: { code: `HTTP_${error.status}`, message: error.message || 'Request failed.' },
      },
    };
  }
  if (error instanceof ColloquyError) {
    return {
      status: STATUS_BY_CODE[error.code] ?? 500,
      body: { error: { code: error.code, message: error.message } },
    };
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
  const { status, body } = toErrorResponse(error);
  return c.json(body, status);
}

/** Hono's `notFound` handler. */
export function handleNotFound(c: Context): Response {
  return c.json<ErrorBody>(
    {
      error: {
        code: 'ROUTE_NOT_FOUND',
        message: `No route ${c.req.method} ${c.req.path}. See docs/server.md for the routes.`,
      },
    },
    404,
  );
}

/** The 413 response of the body limit. */
export function payloadTooLarge(c: Context, maxBytes: number): Response {
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
  const text = await c.req.text();
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

/** A 404 naming what was not found and what exists. */
export function notFound(
  code: string,
  what: string,
  known: readonly string[],
  hint: string,
): HttpError {
  const list =
    known.length > 0
      ? ` Known: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''}.`
      : '';
  return new HttpError(404, code, `${what} was not found.${list} ${hint}`.trim());
}
