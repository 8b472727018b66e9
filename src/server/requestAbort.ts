/**
 * The abort controller of the one agency call a route runs to its end and answers as JSON: aborted
 * when the client goes away before the answer is written.
 * @module
 */
import type { Context } from 'hono';
import { nodeResponse } from './requestHeader.js';

/** The abort reason of a client that went away, as `@hono/node-server` gives it to the request's signal. */
const GONE = 'Client connection prematurely closed.';

/**
 * A controller for the request's call, aborted when the client disconnects. On Node the response's
 * `close` before the answer was written tells (as `@hono/node-server` itself decides): reading
 * `c.req.raw.signal` instead makes the adapter build an `AbortController` and its signal per
 * request (about 4 µs), which the call tracker then linked to a controller of its own with a
 * listener. Handed to the executor with its signal (`ExecutorCallOptions.controller`), it is the
 * call's only controller. Elsewhere (`app.request()` in tests, other runtimes) it follows the web
 * request's signal.
 */
export function requestController(c: Context): AbortController {
  const controller = new AbortController();
  const outgoing = nodeResponse(c);
  if (outgoing) {
    const incoming = (c.env as { incoming?: { errored?: Error | null } }).incoming;
    const onClose = () => {
      const errored = incoming?.errored;
      if (errored) controller.abort(errored.toString());
      else if (!outgoing.writableFinished) controller.abort(GONE);
    };
    if (outgoing.destroyed) onClose();
    else outgoing.once('close', onClose);
    return controller;
  }
  const signal = c.req.raw.signal;
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}
