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
  const gate = bodySizeGate(options);
  return async (c, next) => {
    const verdict = gate.check(c);
    if (verdict === undefined) return next();
    return verdict === 'count' ? gate.counting(c, next) : verdict;
  };
}

/** The check of {@link bodyLimit}, for middleware that composes it. */
export interface BodySizeGate {
  /**
   * A request's verdict from its headers: undefined when its body is within the limit (or never
   * read), `'count'` when it has no `Content-Length` (pass it through {@link BodySizeGate.counting}),
   * else the `onError` response.
   */
  check(c: Context): Response | Promise<Response> | 'count' | undefined;
  /** Hono's `bodyLimit`, counting a body without `Content-Length` as it is read. */
  counting: MiddlewareHandler;
}

/** The gate of {@link bodyLimit} for `options`. */
export function bodySizeGate(options: BodyLimitOptions): BodySizeGate {
  const counting = honoBodyLimit(options);
  const check = (c: Context): Response | Promise<Response> | 'count' | undefined => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return undefined; // a body there is never read
    const length = requestHeader(c, 'content-length');
    if (length === undefined || requestHeader(c, 'transfer-encoding') !== undefined) return 'count';
    return parseInt(length, 10) > options.maxSize ? options.onError(c) : undefined;
  };
  return { check, counting };
}
