/**
 * The request body limit: a body declared larger than the limit by its `Content-Length` gets 413
 * at once; a body without one (chunked) is counted as it is read, by Hono's `bodyLimit`. Unlike
 * Hono's middleware alone, a request with a `Content-Length` is checked from its headers without
 * touching the body, so that `@hono/node-server` keeps its lightweight request and routes read the
 * body straight from the socket (no web `Request`, `ReadableStream` or copy per request).
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { requestHeader } from './requestHeader.js';

/** Options of {@link bodyLimit}. */
export interface BodyLimitOptions {
  /** The largest body accepted, in bytes. */
  maxSize: number;
  /** The response to a larger body. */
  onError: (c: Context) => Response | Promise<Response>;
}

/** Middleware answering `onError` to request bodies larger than `maxSize` bytes. */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const counting = honoBodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next(); // a body there is never read
    const length = requestHeader(c, 'content-length');
    if (length === undefined || requestHeader(c, 'transfer-encoding') !== undefined) {
      return counting(c, next);
    }
    return parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
  };
}
