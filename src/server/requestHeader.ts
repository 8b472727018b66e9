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

const utf8 = new TextDecoder(); // as `Request.text()`: a leading byte order mark is dropped

/**
 * The request body as text. On Node (`@hono/node-server`) a body that has fully arrived with its
 * `Content-Length` (nearly every JSON body: it comes in the packet after its headers) is taken
 * straight from the Node request's buffer, without the adapter's body reader (a promise, four
 * stream listeners and a tick to start the stream flowing); it is also kept as Hono's cached text,
 * so a later `c.req.text()` or `c.req.json()` reads the same. Anything else (a chunked body, one
 * still arriving, one read already, or a request without a Node request behind it) is read with
 * `c.req.text()`, as before.
 */
export async function readBodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers === undefined || !directlyReadable(c, incoming)) return c.req.text();
  // Called as the request arrives, the body is parsed after this tick's headers: wait one turn.
  if (!incoming.complete) await undefined;
  if (!incoming.complete || !directlyReadable(c, incoming)) return c.req.text();
  const chunks: Buffer[] = [];
  for (let chunk = incoming.read() as Buffer | null; chunk !== null; chunk = incoming.read()) {
    chunks.push(chunk);
  }
  const text = utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  // Hono keeps the promise of each body read here (its type says the value).
  (c.req.bodyCache as Record<string, Promise<unknown>>).text = Promise.resolve(text);
  return text;
}

/** Whether a Node request's body can be read from its buffer: declared by length, unread, in bytes. */
function directlyReadable(c: Context, incoming: IncomingMessage): boolean {
  return (
    incoming.headers['content-length'] !== undefined &&
    incoming.headers['transfer-encoding'] === undefined &&
    !incoming.readableDidRead &&
    incoming.readableEncoding === null &&
    !incoming.destroyed &&
    isEmpty(c.req.bodyCache)
  );
}

function isEmpty(record: object): boolean {
  for (const _key in record) return false;
  return true;
}
