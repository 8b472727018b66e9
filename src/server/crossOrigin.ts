/**
 * Cross-origin policy: without CORS configured, a request a browser marks as coming from another
 * origin (`Origin` other than the server's own, or `Sec-Fetch-Site: cross-site`) is refused with
 * 403, so web pages cannot drive the server. With `cors` set, the listed origins get CORS headers
 * and preflight answers (Hono's `cors` middleware); other origins are still refused.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ErrorBody } from './errors.js';
import { requestHeader } from './requestHeader.js';

/** Options of {@link crossOrigin}. */
export interface CrossOriginOptions {
  /** Origins allowed to call the server from a browser (e.g. `https://app.example`), or `'*'`. Default: none. */
  cors?: string | readonly string[];
}

/** `scheme://host[:port]` of an origin string, normalised; null when it is not one. */
export function normalizeOrigin(origin: string): string | null {
  if (origin === '*') return '*';
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    // Not a URL: not an origin (the caller reports the bad value).
    return null;
  }
}

/** The origins of a `cors` option, normalised; throws `TypeError` naming a malformed one. */
export function corsOrigins(option: CrossOriginOptions['cors']): string[] {
  const list = option === undefined ? [] : typeof option === 'string' ? [option] : [...option];
  return list.map((entry) => {
    const origin = normalizeOrigin(entry.trim());
    if (origin === null) {
      throw new TypeError(
        `cors: "${entry}" is not an origin. Pass scheme://host[:port] (e.g. https://app.example or http://localhost:5173), or "*".`,
      );
    }
    return origin;
  });
}

function refuse(c: Context, origin: string, configured: boolean): Response {
  const hint = configured
    ? 'Add it to --cors (the cors option) if this page should reach the server.'
    : 'Start the server with --cors ORIGIN (the cors option) to let that page call it.';
  return c.json<ErrorBody>(
    {
      error: {
        code: 'CROSS_ORIGIN_REFUSED',
        message: `Requests from origin ${JSON.stringify(origin.slice(0, 100))} are not allowed. ${hint}`,
      },
    },
    403,
  );
}

/** Middleware enforcing the cross-origin policy above. */
export function crossOrigin(options: CrossOriginOptions = {}): MiddlewareHandler {
  const policy = crossOriginPolicy(options);
  return async (c, next) => {
    const verdict = policy.check(c);
    if (verdict === undefined) return next();
    return verdict === 'cors' ? policy.withCors(c, next) : verdict;
  };
}

/** The cross-origin policy of {@link crossOrigin} as a check, for middleware that composes it. */
export interface CrossOriginPolicy {
  /**
   * A request's verdict: undefined when it passes as is, `'cors'` when it passes through
   * {@link CrossOriginPolicy.withCors} (an allowed foreign origin), else the 403 response.
   */
  check(c: Context): Response | 'cors' | undefined;
  /** Hono's `cors` middleware for the allowed origins (CORS headers, preflight answers). */
  withCors: MiddlewareHandler;
}

/** The policy of {@link crossOrigin} for `options`; throws `TypeError` naming a malformed origin. */
export function crossOriginPolicy(options: CrossOriginOptions = {}): CrossOriginPolicy {
  const allowed = corsOrigins(options.cors);
  const any = allowed.includes('*');
  const withCors = cors({
    origin: any ? '*' : allowed,
    allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'],
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  const check = (c: Context): Response | 'cors' | undefined => {
    const origin = requestHeader(c, 'origin');
    if (origin === undefined) {
      // Browsers send Origin on cross-origin requests; Sec-Fetch-Site covers the rest.
      const fetchSite = requestHeader(c, 'sec-fetch-site');
      if (fetchSite === 'cross-site' && !any) return refuse(c, 'cross-site', allowed.length > 0);
      return undefined;
    }
    const normalized = normalizeOrigin(origin) ?? origin;
    if (normalized === new URL(c.req.url).origin) return undefined; // the server's own (parsed only here)
    if (!any && !allowed.includes(normalized)) return refuse(c, origin, allowed.length > 0);
    return 'cors';
  };
  return { check, withCors };
}
