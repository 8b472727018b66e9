/**
 * Server-Sent Events (an {@link SseStream} body). {@link streamEvents} sends plain JSON events, one
 * SSE event per object, named by its `type`, with the object (unchanged) as JSON data and a
 * sequence `id`. In both helpers a client that disconnects aborts the signal the producer gets.
 * @module
 */
import type { Context } from 'hono';
import { ServerResponse } from 'node:http';
import { SseStream, type SseWriter } from './sseStream.js';
import { ALREADY_SENT_HEADER, SocketSseStream } from './sseSocket.js';
import { errorInfo, type ErrorInfo } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { publicError, publicErrorInfo } from './publicError.js';
import type { InFlight } from './inflight.js';

/** Options of {@link streamEvents} and {@link streamWithAbort}. */
export interface StreamEventsOptions {
  /** Tracks the stream until it ends (graceful shutdown waits for it). */
  inflight?: InFlight;
}

/** An SSE response being written: straight to Node's response, or a web stream body. */
export type SseBody = SseStream | SocketSseStream;

/**
 * Opens the SSE response of `c`: its headers set, and its body, written straight to Node's
 * `ServerResponse` when the app runs on `@hono/node-server` (see sseSocket.ts), else a web stream.
 * `response()` is what the route returns (once its writer is set up).
 */
export function openSse(c: Context): { stream: SseBody; response(): Response } {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  const direct = outgoing instanceof ServerResponse && !outgoing.headersSent;
  const stream = direct ? new SocketSseStream(outgoing, () => c.res) : new SseStream();
  c.header('Transfer-Encoding', 'chunked');
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('Connection', 'keep-alive');
  return {
    stream,
    response() {
      if (stream instanceof SseStream) return c.newResponse(stream.body);
      c.header(ALREADY_SENT_HEADER, 'true');
      return writtenResponse(c.newResponse(null));
    },
  };
}

/**
 * Answers with an SSE stream written by `write`. The signal aborts when the client disconnects;
 * `write` should then stop (and stop the work it streams). Errors `write` throws are swallowed:
 * it is expected to send its own final event.
 */
export function streamWithAbort(
  c: Context,
  write: (stream: SseWriter, signal: AbortSignal) => Promise<void>,
  options: StreamEventsOptions = {},
): Response {
  const { stream, response } = openSse(c);
  const controller = new AbortController();
  const disconnect = () => {
    if (!controller.signal.aborted)
      controller.abort(new Error('The client disconnected from the event stream.'));
  };
  stream.onAbort(disconnect);
  // On Node the response's 'close' tells (SocketSseStream.onAbort); reading the request's signal
  // would make the adapter build an AbortController and a web Request for it.
  const request = stream instanceof SseStream ? c.req.raw.signal : undefined;
  request?.addEventListener('abort', disconnect, { once: true });
  const run = write(stream, controller.signal)
    // The writers send a run's failure as an `error` event; what throws here is the socket
    // (the client left mid-write): nobody is left to tell, so it is only logged.
    .catch((error: unknown) =>
      getDefaultLogger().debug({ component: 'server', err: error }, 'an event stream ended early'),
    )
    .finally(() => {
      request?.removeEventListener('abort', disconnect);
      stream.close();
    });
  void (options.inflight ? options.inflight.track(run) : run);
  return response();
}

/**
 * A response written by the route itself, which the Node adapter must leave alone: its status and
 * headers are `draft`'s (Hono's, which middleware after the route still edit), it has no body, it
 * carries the already-sent marker, and it is not of the adapter's cached kind (whose status and
 * headers the adapter would write before ending the body). The draft's headers are taken as they
 * are: making the adapter's lazy `Response` a web one to lose its cached kind (reading its
 * `body`) cost about 40 µs a streamed request. A plain object with the three fields the adapter
 * and the middleware read: redefining them on a `Response` (as before) made a slow object of it.
 */
function writtenResponse(draft: Response): Response {
  const written: Pick<Response, 'status' | 'headers' | 'body'> = {
    status: draft.status,
    headers: draft.headers,
    body: null,
  };
  return written as Response;
}

/** What an ended {@link untilAborted} iterator answers. */
const ENDED: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Yields what `iterable` yields until `signal` aborts; then stops at once (without waiting for a
 * pending value) and closes the iterator, which for an agency stream aborts the run. A plain
 * iterator rather than an async generator: one promise race a value, no generator step on top.
 */
export function untilAborted<T>(
  iterable: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncIterableIterator<T, undefined> {
  const iterator = iterable[Symbol.asyncIterator]();
  let ended = false;
  /** Ends the iteration; closes the source unless it finished by itself. */
  const end = (finished: boolean): IteratorReturnResult<undefined> => {
    // Closing after an abort: the run reports its own end (an aborted run is not an error here).
    if (!ended && !finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    ended = true;
    return ENDED;
  };
  type Step = IteratorResult<T> | typeof ENDED;
  /** Settles the pending read with the end when the signal aborts (one listener for all reads). */
  let settle: ((step: Step) => void) | undefined;
  let listening = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<T, undefined>> {
      if (ended) return ENDED;
      if (signal.aborted) return end(false);
      if (!listening) {
        listening = true;
        signal.addEventListener('abort', () => settle?.(ENDED), { once: true });
      }
      let next: Step;
      try {
        const read = iterator.next();
        // A race of the read and the abort: one promise (`Promise.race` makes three).
        next = await new Promise<Step>((resolve, reject) => {
          settle = resolve;
          read.then(resolve, reject);
        });
      } catch (error) {
        end(false);
        throw error;
      }
      if (next === ENDED) return end(false);
      if (next.done) return end(true);
      return next;
    },
    async return(): Promise<IteratorReturnResult<undefined>> {
      return end(false);
    },
  };
}

/**
 * Answers with an SSE stream of the events `produce` yields, as `[id, event]` pairs or bare events
 * (numbered from 0). The stream ends when the iterable ends, or throws (after an `error` event:
 * the producer's own, else one made from what it threw), or when the client goes away: then the
 * signal given to `produce` aborts and the iterable is closed.
 */
export function streamEvents<E extends { type: string }>(
  c: Context,
  produce: (signal: AbortSignal) => AsyncIterable<E | [number, E]>,
  options: StreamEventsOptions = {},
): Response {
  return streamWithAbort(
    c,
    async (stream, signal) => {
      let seq = 0;
      let last = '';
      const send = async (id: number, event: { type: string; error?: unknown }) => {
        seq = id + 1;
        last = event.type;
        const info = event.error as ErrorInfo | undefined;
        const safe =
          typeof info?.message === 'string' ? { ...event, error: publicErrorInfo(info) } : event;
        await stream.writeSSE({ event: event.type, data: JSON.stringify(safe), id: String(id) });
      };
      try {
        for await (const entry of untilAborted(produce(signal), signal)) {
          if (signal.aborted) break;
          const [id, event] = Array.isArray(entry) ? entry : [seq, entry];
          await send(id, event);
        }
      } catch (error) {
        if (last !== 'error' && !signal.aborted)
          await send(seq, { type: 'error', error: errorInfo(publicError(error)) });
      }
    },
    options,
  );
}
