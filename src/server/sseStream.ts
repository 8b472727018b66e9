/**
 * An SSE response body written with one `ReadableStream` and nothing else. Hono's `streamSSE`
 * goes through a `TransformStream`, a writer and a second `ReadableStream` per chunk, and each
 * chunk becomes its own socket write; here the events written during one turn of the event loop
 * are encoded once and handed to the reader (`@hono/node-server` writes them to the socket) as one
 * chunk at the end of that turn. Events that arrive apart (a model's tokens) still go out as they
 * come; a burst (a tool result, the last chunks and `[DONE]`) costs one write instead of several.
 * @module
 */

/** One event: `data` (split on line breaks into `data:` lines), and an optional name and id. */
export interface SseMessage {
  data: string;
  event?: string;
  id?: string;
}

/** What a streaming route writes to (see `streamWithAbort`). */
export interface SseWriter {
  /** Writes one event; resolves once the reader wants more (backpressure). */
  writeSSE(message: SseMessage): Promise<void>;
  /** Writes raw text (already framed as SSE). */
  write(text: string): Promise<void>;
}

const encoder = new TextEncoder();

/** The text of one SSE event, as Hono's `writeSSE` frames it. */
export function sseText(message: SseMessage): string {
  for (const key of ['event', 'id'] as const) {
    const value = message[key];
    if (value !== undefined && /[\r\n]/.test(value)) {
      throw new Error(`SSE ${key} must not contain a line break (got ${JSON.stringify(value)}).`);
    }
  }
  const data =
    message.data.includes('\n') || message.data.includes('\r')
      ? message.data.split(/\r\n|\r|\n/).join('\ndata: ')
      : message.data;
  const event = message.event ? `event: ${message.event}\n` : '';
  const id = message.id !== undefined ? `\nid: ${message.id}` : '';
  return `${event}data: ${data}${id}\n\n`;
}

/** A push-based SSE body: write events, then {@link SseStream.close}; the reader may cancel. */
export class SseStream implements SseWriter {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #ended = false;
  #wantMore: (() => void) | undefined;
  /** Text written this turn of the event loop, not yet handed to the reader. */
  #pending = '';
  readonly #flushSoon = () => this.#flush();
  readonly #onAbort: Array<() => void> = [];

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      pull: () => this.#resume(),
      cancel: () => this.abort(),
    });
  }

  /** Whether the stream ended (closed by the writer, or cancelled by the reader). */
  get ended(): boolean {
    return this.#ended;
  }

  writeSSE(message: SseMessage): Promise<void> {
    return this.write(sseText(message));
  }

  async write(text: string): Promise<void> {
    if (this.#ended) return;
    if (this.#pending === '') setImmediate(this.#flushSoon);
    this.#pending += text;
    if ((this.#controller.desiredSize ?? 1) > 0) return;
    await new Promise<void>((resolve) => (this.#wantMore = resolve));
  }

  /**
   * Hands `text` (framed SSE) to the reader now, after what is pending, as one chunk: for a writer
   * that gathers the events of a turn itself. A promise only when the reader wants no more yet.
   */
  send(text: string): Promise<void> | undefined {
    if (this.#ended) return undefined;
    this.#pending += text;
    const wantsMore = (this.#controller.desiredSize ?? 1) > 0;
    this.#flush();
    return wantsMore ? undefined : new Promise<void>((resolve) => (this.#wantMore = resolve));
  }

  /** Calls `listener` when the reader cancels (the client went away). */
  onAbort(listener: () => void): void {
    this.#onAbort.push(listener);
  }

  /** Ends the body after what was written and `text` (framed SSE). */
  close(text = ''): void {
    if (this.#ended) return;
    this.#pending += text;
    this.#flush();
    this.#ended = true;
    this.#resume();
    this.#controller.close();
  }

  /** Ends the stream for a reader that left: writes are dropped, abort listeners called. */
  abort(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pending = '';
    this.#resume();
    for (const listener of this.#onAbort.splice(0)) listener();
  }

  #flush(): void {
    if (this.#pending === '' || this.#ended) return;
    this.#controller.enqueue(encoder.encode(this.#pending));
    this.#pending = '';
  }

  #resume(): void {
    const wake = this.#wantMore;
    this.#wantMore = undefined;
    wake?.();
  }
}
