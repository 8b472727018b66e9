/**
 * Frame headers: the studio and the API may be framed by pages of their own origin only
 * (`Content-Security-Policy: frame-ancestors 'self'` and, for older browsers,
 * `X-Frame-Options: SAMEORIGIN`), so another site (or another port of the same host) cannot
 * show the keyless studio in a frame and click its buttons (clickjacking).
 * @module
 */
import type { MiddlewareHandler } from 'hono';

/** The frame headers every response carries. */
export const FRAME_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
};

/**
 * Middleware adding {@link FRAME_HEADERS} to every response (errors included). A
 * `Content-Security-Policy` a route set already keeps its directives and gains
 * `frame-ancestors 'self'` unless it has its own.
 */
export function frameHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const policy = c.res.headers.get('Content-Security-Policy');
    if (policy === null) c.res.headers.set('Content-Security-Policy', "frame-ancestors 'self'");
    else if (!/(^|;)\s*frame-ancestors\b/i.test(policy))
      c.res.headers.set('Content-Security-Policy', `${policy}; frame-ancestors 'self'`);
    c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
  };
}
