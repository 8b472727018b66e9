/**
 * SSE written straight to Node's `ServerResponse` when the app runs on `@hono/node-server`. Its
 * stream path sends the response headers in a socket write of their own, then each chunk in
 * another; here the headers go out with the first events, and the events of one turn of the
 * event loop in one write (a loopback write costs a streamed call about 0.1–0.9 ms of CPU).
 * The route still returns a `Response` (headers only, marked already sent, so the adapter writes
 * nothing); the headers middleware adds to it after the route are read at the first write.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { sseText, type SseMessage, type SseWriter } from './sseStream.js';

/** What a write returns when the reader wants more at once. */
const DONE: Promise<void> = Promise.resolve();

/** The header `@hono/node-server` reads as "the response was written by the route". */
export const ALREADY_SENT_HEADER = 'x-hono-already-sent';

/** An SSE stream on a Node response (see the module comment). */
export class SocketSseStream implements SseWriter {
  readonly #outgoing: ServerResponse;
  readonly #response: () => Response;
  readonly #onAbort: Array<() => void> = [];
  #ended = false;
  #pending = '';
  readonly #flushSoon = () => this.#flush();

  /** `response`: the route's response as the middleware left it (status and headers to send). */
  constructor(outgoing: ServerResponse, response: () => Response) {
    this.#outgoing = outgoing;
    this.#response = response;
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) this.abort();
    });
  }

  get ended(): boolean {
    return this.#ended;
  }

  writeSSE(message: SseMessage): Promise<void> {
    return this.write(sseText(message));
  }

  write(text: string): Promise<void> {
    if (this.#ended) return DONE;
    if (this.#pending === '') setImmediate(this.#flushSoon);
    this.#pending += text;
    // No promise made per event unless the socket wants draining (backpressure).
    return this.#outgoing.writableNeedDrain ? this.#drained() : DONE;
  }

  /** Resolves when the socket drained, or closed. */
  #drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#outgoing.off('drain', done);
        this.#outgoing.off('close', done);
        resolve();
      };
      this.#outgoing.on('drain', done);
      this.#outgoing.on('close', done);
    });
  }

  /**
   * Writes `text` (framed SSE) now, after what is pending, in one socket write: for a writer that
   * gathers the events of a turn itself (a run's follower). A promise only when the socket wants
   * draining first.
   */
  send(text: string): Promise<void> | undefined {
    if (this.#ended) return undefined;
    this.#writeHead();
    this.#outgoing.write(this.#pending + text);
    this.#pending = '';
    return this.#outgoing.writableNeedDrain ? this.#drained() : undefined;
  }

  onAbort(listener: () => void): void {
    this.#onAbort.push(listener);
  }

  /** Ends the response after what was written and `text` (framed SSE). */
  close(text = ''): void {
    if (this.#ended) return;
    // The last events and the end of the body in one write (Node corks `end`), not two.
    const rest = this.#pending + text;
    this.#pending = '';
    this.#ended = true;
    this.#writeHead();
    if (rest === '') this.#outgoing.end();
    else this.#outgoing.end(rest);
  }

  /** The client left: writes are dropped, abort listeners called. */
  abort(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pending = '';
    for (const listener of this.#onAbort.splice(0)) listener();
  }

  #flush(): void {
    if (this.#pending === '' || this.#ended) return;
    this.#writeHead();
    this.#outgoing.write(this.#pending);
    this.#pending = '';
  }

  #writeHead(): void {
    if (this.#outgoing.headersSent) return;
    const response = this.#response();
    const headers: Record<string, string | string[]> = {};
    const cookies: string[] = [];
    response.headers.forEach((value, key) => {
      if (key === 'set-cookie') cookies.push(value);
      else if (key !== ALREADY_SENT_HEADER) headers[key] = value;
    });
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    this.#outgoing.writeHead(response.status, headers);
  }
}
