/**
 * `colloquy/client`: a small, dependency-free client of `colloquy serve` for browsers and Node
 * (only `fetch`): agencies, responses and their event streams, threads, checkpoints, ensemble
 * runs (whose event stream reconnects where it left off), traces. It imports nothing from the
 * rest of Colloquy, so a web bundle stays small.
 *
 * @example React
 * ```tsx
 * const colloquy = createClient({ baseUrl: 'http://127.0.0.1:8787' });
 *
 * function Answer({ message }: { message: string }) {
 *   const [text, setText] = useState('');
 *   useEffect(() => {
 *     const controller = new AbortController();
 *     void (async () => {
 *       for await (const event of colloquy.stream('support', { message }, controller.signal)) {
 *         if (event.type === 'raw_model_stream_event' && event.depth === 0)
 *           setText((t) => t + ((event.data as { delta?: string }).delta ?? ''));
 *       }
 *     })();
 *     return () => controller.abort();
 *   }, [message]);
 *   return <p>{text}</p>;
 * }
 * ```
 * @module
 */

/** An event of an agency or run stream: `{ type, ...fields }` (see `AgencyStreamEvent`). */
export type ClientEvent = { type: string; [field: string]: unknown };

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** How many times a run's event stream reconnects after a dropped connection (default 5). */
  reconnects?: number;
}

/** A failed request: the server's error `code`, `message` and the field (`path`) it names. */
export class ColloquyClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'ColloquyClientError';
  }
}

/** Reads SSE events (`id`, `data`) from a response body. */
async function* sse(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ id?: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) id = line.slice(3).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length > 0) yield { ...(id !== undefined ? { id } : {}), data: data.join('\n') };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Creates a client of one server. */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const headers = (extra: Record<string, string> = {}) => ({
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...extra,
  });
  const request = async (method: string, path: string, body?: unknown, init: RequestInit = {}) => {
    const res = await doFetch(`${base}${path}`, {
      method,
      ...init,
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) {
      // A body that is not JSON (a proxy's error page): the status alone describes the error.
      const error = ((await res.json().catch(() => ({}))) as { error?: Record<string, string> })
        .error;
      throw new ColloquyClientError(
        res.status,
        error?.code ?? 'HTTP_ERROR',
        error?.message ?? `${method} ${path} answered ${res.status}.`,
        error?.path,
      );
    }
    return res;
  };
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await (await request(method, path, body)).json()) as T;
  const q = encodeURIComponent;

  return {
    agencies: () =>
      json<{ agencies: Array<{ name: string; entryPoints: string[] }> }>('GET', '/agencies'),
    agency: (name: string) => json<Record<string, unknown>>('GET', `/agencies/${q(name)}`),
    /** `POST /agencies/:name/responses`: the whole answer. */
    respond: (name: string, body: { message: string; chatId?: string; [field: string]: unknown }) =>
      json<{ finalOutput: unknown; chatId: string; usage: Record<string, number> }>(
        'POST',
        `/agencies/${q(name)}/responses`,
        body,
      ),
    /** `POST /agencies/:name/responses/stream`: the run's events (a POST is never re-sent). */
    async *stream(
      name: string,
      body: { message: string; chatId?: string; [field: string]: unknown },
      signal?: AbortSignal,
    ): AsyncGenerator<ClientEvent> {
      const res = await request(
        'POST',
        `/agencies/${q(name)}/responses/stream`,
        body,
        signal ? { signal } : {},
      );
      for await (const event of sse(res.body!)) yield JSON.parse(event.data) as ClientEvent;
    },
    threads: (chatId: string) => json<{ threads: unknown[] }>('GET', `/chats/${q(chatId)}/threads`),
    thread: (id: string) => json<{ thread: unknown; items: unknown[] }>('GET', `/threads/${q(id)}`),
    checkpoint: (chatId: string, label?: string) =>
      json<{ checkpointId: string }>(
        'POST',
        `/chats/${q(chatId)}/checkpoints`,
        label ? { label } : {},
      ),
    checkpoints: (chatId: string) =>
      json<{ checkpoints: unknown[] }>('GET', `/chats/${q(chatId)}/checkpoints`),
    startRun: (ensemble: string, body: { input?: string; runId?: string } = {}) =>
      json<{ runId: string; status: string }>('POST', `/ensembles/${q(ensemble)}/runs`, body),
    run: (runId: string) =>
      json<{ runId: string; status: string; result?: unknown }>('GET', `/runs/${q(runId)}`),
    /** `GET /runs/:id/events`, reconnecting after a dropped connection from the last event seen. */
    async *runEvents(runId: string, signal?: AbortSignal): AsyncGenerator<ClientEvent> {
      let last: string | undefined;
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await doFetch(`${base}/runs/${q(runId)}/events`, {
            headers: headers(last === undefined ? {} : { 'last-event-id': last }),
            ...(signal ? { signal } : {}),
          });
          if (!res.ok)
            throw new ColloquyClientError(
              res.status,
              'HTTP_ERROR',
              `GET /runs/${runId}/events answered ${res.status}.`,
            );
          for await (const event of sse(res.body!)) {
            if (event.id !== undefined) last = event.id;
            const parsed = JSON.parse(event.data) as ClientEvent;
            yield parsed;
            if (parsed.type === 'ensemble_finished' || parsed.type === 'error') return;
          }
          return;
        } catch (error) {
          if (
            signal?.aborted ||
            error instanceof ColloquyClientError ||
            attempt >= (options.reconnects ?? 5)
          )
            throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 5_000)));
        }
      }
    },
    traces: () => json<Record<string, unknown>>('GET', '/traces'),
    /**
     * Any JSON route of the server (the studio reads every view through it): the parsed answer,
     * or a {@link ColloquyClientError}.
     */
    async call<T>(
      method: 'GET' | 'POST' | 'DELETE',
      path: string,
      body?: unknown,
      signal?: AbortSignal,
    ): Promise<T> {
      const res = await request(method, path, body, signal ? { signal } : {});
      return (await res.json()) as T;
    },
    /**
     * Any Server-Sent Events route (POST with `body`, else GET): the response's headers (e.g.
     * `x-colloquy-chat-id`) once it answers, and its events. Aborting `signal` closes the stream.
     */
    async openEvents(
      path: string,
      body?: unknown,
      signal?: AbortSignal,
    ): Promise<{ headers: Headers; events: AsyncGenerator<ClientEvent> }> {
      const res = await request(
        body === undefined ? 'GET' : 'POST',
        path,
        body,
        signal ? { signal } : {},
      );
      async function* events(): AsyncGenerator<ClientEvent> {
        for await (const event of sse(res.body!)) yield JSON.parse(event.data) as ClientEvent;
      }
      return { headers: res.headers, events: events() };
    },
  };
}

/** A client of one server (what {@link createClient} returns). */
export type ColloquyClient = ReturnType<typeof createClient>;
