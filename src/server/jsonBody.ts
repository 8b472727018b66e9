/**
 * Request bodies must say they are JSON (`application/json` or `application/*+json`), or
 * `multipart/form-data` on upload routes; anything else is refused with 415. Browsers send
 * `text/plain` and form types cross-site without a CORS preflight, so accepting them would let a
 * web page run agencies.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ErrorBody } from './errors.js';
import { requestHeader } from './requestHeader.js';

/** Options of {@link requireJsonBody}. */
export interface JsonBodyOptions {
  /** Paths whose routes take `multipart/form-data` uploads (default: none). */
  multipartPaths?: readonly RegExp[];
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/** The media type of a `Content-Type` header, lowercased, without parameters. */
export function mediaType(header: string): string {
  return header.split(';')[0]!.trim().toLowerCase();
}

/** Middleware answering 415 `UNSUPPORTED_MEDIA_TYPE` to bodies that are not declared JSON. */
export function requireJsonBody(options: JsonBodyOptions = {}): MiddlewareHandler {
  const refusal = jsonBodyRefusal(options);
  return async (c, next) => refusal(c) ?? next();
}

/**
 * The check of {@link requireJsonBody} alone: a function answering the 415 response to a body
 * not declared JSON (nor multipart where allowed), else undefined.
 */
export function jsonBodyRefusal(
  options: JsonBodyOptions = {},
): (c: Context) => Response | undefined {
  const multipart = options.multipartPaths ?? [];
  return (c) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return undefined;
    const header = requestHeader(c, 'content-type');
    if (header !== undefined) {
      // The usual body: exactly `application/json`, checked without splitting the header.
      if (header === 'application/json') return undefined;
    } else {
      const length = requestHeader(c, 'content-length');
      const hasBody =
        length !== undefined
          ? Number(length) > 0
          : requestHeader(c, 'transfer-encoding') !== undefined;
      if (!hasBody) return undefined;
    }
    const type = mediaType(header ?? '');
    if (JSON_TYPE.test(type)) return undefined;
    if (type === 'multipart/form-data' && multipart.some((p) => p.test(c.req.path))) {
      return undefined;
    }
    return c.json<ErrorBody>(
      {
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message:
            `The request body has content-type ${JSON.stringify(header ?? '(none)')}, but this route takes JSON. ` +
            'Send the body with "content-type: application/json".',
        },
      },
      415,
    );
  };
}
