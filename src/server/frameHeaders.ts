/**
 * Frame headers: the studio and the API may be framed by pages of their own origin only
 * (`Content-Security-Policy: frame-ancestors 'self'` and, for older browsers,
 * `X-Frame-Options: SAMEORIGIN`), so another site (or another port of the same host) cannot
 * show the keyless studio in a frame and click its buttons (clickjacking).
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { nodeResponse } from './requestHeader.js';

/** The frame headers every response carries. */
export const FRAME_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
};

const FRAME_ANCESTORS = /(^|;)\s*frame-ancestors\b/i;

/** A route's `Content-Security-Policy` with `frame-ancestors 'self'` unless it has its own. */
function withFrameAncestors(policy: string): string {
  return FRAME_ANCESTORS.test(policy) ? policy : `${policy}; frame-ancestors 'self'`;
}

/**
 * Middleware adding {@link FRAME_HEADERS} to every response (errors included). A
 * `Content-Security-Policy` a route set already keeps its directives and gains
 * `frame-ancestors 'self'` unless it has its own.
 *
 * On Node (`@hono/node-server`, whose `c.env.outgoing` is the response) the headers are set on
 * the Node response, and a route's own policy is completed as the adapter writes the head
 * (see {@link frameNodeResponse}): reading `c.res.headers` after the route made the adapter turn
 * the response's plain header object into a web `Headers`, which it then iterates (sorted) to
 * write the head, about 35 µs a request under an agent's load. Elsewhere (`app.request()`, other
 * runtimes) they are added to the route's `Response`.
 */
export function frameHeaders(): MiddlewareHandler {
  return async (c, next) => {
    const outgoing = nodeResponse(c);
    if (outgoing) {
      frameNodeResponse(outgoing);
      return next();
    }
    await next();
    frameWebResponse(c);
  };
}

/** Adds the frame headers to a finished request's web `Response` (`c.res`), as {@link frameHeaders} does off Node. */
export function frameWebResponse(c: Context): void {
  const policy = c.res.headers.get('Content-Security-Policy');
  if (policy === null) c.res.headers.set('Content-Security-Policy', "frame-ancestors 'self'");
  else c.res.headers.set('Content-Security-Policy', withFrameAncestors(policy));
  c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
}

/**
 * Gives a Node response the frame headers: set now (so a head written without them still has
 * them), and made to win in the head the adapter writes with `writeHead(status, headers)`: a
 * `Content-Security-Policy` there gains `frame-ancestors 'self'` unless it has its own, and an
 * `X-Frame-Options` there gives way to `SAMEORIGIN`, as on the web path.
 */
export function frameNodeResponse(outgoing: ServerResponse): void {
  outgoing.setHeader('Content-Security-Policy', "frame-ancestors 'self'");
  outgoing.setHeader('X-Frame-Options', 'SAMEORIGIN');
  const writeHead = outgoing.writeHead;
  outgoing.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const at = args.length - 1;
    const headers = args[at];
    if (at > 0 && headers !== null && typeof headers === 'object' && !Array.isArray(headers)) {
      args[at] = framed(headers as Record<string, unknown>);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * A head's headers with the frame headers made to win (see {@link frameNodeResponse}): the same
 * object when it has neither (the usual head: set on the response, ours are there already), else
 * a copy.
 */
function framed(headers: Record<string, unknown>): Record<string, unknown> {
  let mentions = false;
  for (const key in headers) {
    const lower = key.toLowerCase();
    if (lower === 'x-frame-options' || lower === 'content-security-policy') mentions = true;
  }
  if (!mentions) return headers;
  const out: Record<string, unknown> = {};
  for (const key in headers) {
    const value = headers[key];
    switch (key.toLowerCase()) {
      case 'content-security-policy':
        out[key] = Array.isArray(value)
          ? value.map((v) => (typeof v === 'string' ? withFrameAncestors(v) : v))
          : typeof value === 'string'
            ? withFrameAncestors(value)
            : value;
        break;
      case 'x-frame-options':
        break; // ours, set on the response, stays
      default:
        out[key] = value;
    }
  }
  return out;
}
