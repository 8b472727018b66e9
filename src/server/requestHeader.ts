/**
 * Request and response headers without the web `Headers` object where the server runs on Node
 * (`@hono/node-server`): there each `Headers` is built per request and iterated, sorted, to write
 * the head.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header (`name` in lower case). On Node (`@hono/node-server`, whose `c.env.incoming` is
 * the request) it is read from Node's parsed headers: `c.req.header()` makes the adapter build a
 * web `Headers` of every header of the request, per request, for a few lookups. Elsewhere (tests
 * with `app.request()`, other runtimes) from the web request. A repeated header reads the same on
 * both (its values joined with `, `), except those Node keeps once (`host`, `content-type`,
 * `content-length`, `authorization` and a few more: the first value), which browsers never repeat.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers === undefined) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The Node response of a request served by `@hono/node-server` (`c.env.outgoing`), else undefined. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return typeof outgoing?.setHeader === 'function' && typeof outgoing.writeHead === 'function'
    ? outgoing
    : undefined;
}
