/**
 * The app's middleware as two layers instead of seven: {@link requestGuard} (access log, frame
 * headers, the in-flight count and the 503 of a draining server, the Host and cross-origin checks)
 * around every route, and {@link bodyGuard} (JSON-only bodies, the body limit) in front of the
 * routes that take bodies. Each check is the one its own middleware runs (`accessLog`,
 * `frameHeaders`, `hostCheck`, `crossOrigin`, `requireJsonBody`, `bodyLimit`), in the same order
 * with the same answers; composed, a request goes through one `await next()` instead of one per
 * check (Hono's `compose` makes two promises a layer, each dearer with async context tracking on).
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { getDefaultLogger } from '../logger.js';
import { logAccess } from './accessLog.js';
import { bodySizeGate, type BodyLimitOptions } from './bodyLimit.js';
import { crossOriginPolicy, type CrossOriginOptions } from './crossOrigin.js';
import type { ErrorBody } from './errors.js';
import { frameNodeResponse, frameWebResponse } from './frameHeaders.js';
import { hostRefusal } from './hostCheck.js';
import type { InFlight } from './inflight.js';
import { jsonBodyRefusal, type JsonBodyOptions } from './jsonBody.js';
import { nodeResponse } from './requestHeader.js';

/** Options of {@link requestGuard}. */
export interface RequestGuardOptions {
  /** Counts running requests; once draining, requests get 503 `SHUTTING_DOWN`. */
  inflight: InFlight;
  /** Host names served besides loopback names (see `hostCheck`). */
  allowedHosts?: readonly string[];
  /** Origins allowed to call from a browser (see `crossOrigin`). */
  cors?: CrossOriginOptions['cors'];
  /** The access log's logger, looked up per request (default: the default logger). */
  logger?: () => Logger;
}

/** The 503 of a server shutting down, asking the client to close the connection. */
function shuttingDown(c: Context): Response {
  c.header('Connection', 'close');
  return c.json<ErrorBody>(
    {
      error: {
        code: 'SHUTTING_DOWN',
        message: 'The server is shutting down. Retry on another instance or after it restarts.',
      },
    },
    503,
  );
}

/**
 * Middleware run around every request: writes its access-log line, gives its response the frame
 * headers, counts it in flight (a draining server answers 503), and refuses a foreign Host (403)
 * or a cross-origin page (403; allowed origins get CORS headers).
 */
export function requestGuard(options: RequestGuardOptions): MiddlewareHandler {
  const { inflight } = options;
  const logger = options.logger ?? getDefaultLogger;
  const host = hostRefusal({ allowedHosts: options.allowedHosts ?? [] });
  const origin = crossOriginPolicy({ cors: options.cors });
  return async (c, next) => {
    const started = performance.now();
    const outgoing = nodeResponse(c);
    if (outgoing) frameNodeResponse(outgoing);
    if (inflight.draining) {
      c.res = shuttingDown(c);
    } else {
      const verdict = host(c) ?? origin.check(c);
      if (verdict === undefined || verdict === 'cors') {
        inflight.enter();
        try {
          if (verdict === undefined) await next();
          else {
            // Hono's cors answers a preflight itself: its response becomes the request's.
            const preflight = await origin.withCors(c, next);
            if (preflight && !c.finalized) c.res = preflight;
          }
        } finally {
          inflight.leave();
        }
      } else {
        c.res = verdict;
      }
    }
    if (!outgoing) frameWebResponse(c);
    const logged = logAccess(c, started, logger());
    if (logged) await logged;
  };
}

/** Options of {@link bodyGuard}. */
export interface BodyGuardOptions extends BodyLimitOptions {
  /** Paths whose routes take `multipart/form-data` uploads (see `requireJsonBody`). */
  multipartPaths?: JsonBodyOptions['multipartPaths'];
}

/**
 * Middleware in front of the routes: a body not declared JSON gets 415 (multipart only on
 * `multipartPaths`), a body over `maxSize` bytes `onError` (413). Not async: a request that passes
 * goes on in the same call.
 */
export function bodyGuard(options: BodyGuardOptions): MiddlewareHandler {
  const json = jsonBodyRefusal({ multipartPaths: options.multipartPaths ?? [] });
  const size = bodySizeGate(options);
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const refusal = json(c);
    if (refusal) return Promise.resolve(refusal);
    const verdict = size.check(c);
    if (verdict === undefined) return next();
    return verdict === 'count' ? size.counting(c, next) : Promise.resolve(verdict);
  };
}
