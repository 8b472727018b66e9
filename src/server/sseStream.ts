/**
 * An SSE response body written with one `ReadableStream` and nothing else: each event is encoded
 * once and queued for the reader (`@hono/node-server` writes it to the socket). Hono's `streamSSE`
 * goes through a `TransformStream`, a writer and a second `ReadableStream` per chunk, which cost
 * a streamed chat completion about as much CPU as all its events' JSON.
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
    this.#controller.enqueue(encoder.encode(text));
    if ((this.#controller.desiredSize ?? 1) > 0) return;
    await new Promise<void>((resolve) => (this.#wantMore = resolve));
  }

  /** Calls `listener` when the reader cancels (the client went away). */
  onAbort(listener: () => void): void {
    this.#onAbort.push(listener);
  }

  /** Ends the body after what was written. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#resume();
    this.#controller.close();
  }

  /** Ends the stream for a reader that left: writes are dropped, abort listeners called. */
  abort(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#resume();
    for (const listener of this.#onAbort.splice(0)) listener();
  }

  #resume(): void {
    const wake = this.#wantMore;
    this.#wantMore = undefined;
    wake?.();
  }
}
