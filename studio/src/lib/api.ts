/**
 * Calls the Colloquy API from the page: JSON requests and Server-Sent Event streams over fetch,
 * with the API key (kept in sessionStorage, for this tab only) as a bearer token. A 401 fires
 * `colloquy:auth-required` so that the page can ask for the key.
 * @module
 */
import { createParser } from 'eventsource-parser';

const KEY = 'colloquy.apiKey';

/** The API key of this tab, if the user gave one. */
export function apiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

/** Keeps the API key for this tab (or forgets it with null). */
export function setApiKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, key);
}

/** An error answer of the API: its status, stable code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = apiKey();
  return { ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
}

async function failure(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not JSON: keep the status line
  }
  if (res.status === 401) window.dispatchEvent(new CustomEvent('colloquy:auth-required'));
  return new ApiError(res.status, code, message);
}

/** GET (or, with a body, POST) a JSON route; throws {@link ApiError} on an error status. */
export async function api<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** DELETE a JSON route; throws {@link ApiError} on an error status. */
export async function apiDelete<T>(path: string): Promise<T> {
  const res = await fetch(path, { method: 'DELETE', headers: headers() });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/**
 * Opens an SSE route (POST with `body`, else GET) and calls `onEvent` with each event's JSON
 * data; resolves when the stream ends. Aborting `signal` closes the stream (and so stops the run).
 */
export async function streamEvents<E>(
  path: string,
  body: unknown,
  onEvent: (event: E) => void,
  signal: AbortSignal,
): Promise<Response> {
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: headers({
      accept: 'text/event-stream',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal,
  });
  if (!res.ok || !res.body) throw await failure(res);
  const parser = createParser({
    onEvent: (message) => {
      try {
        onEvent(JSON.parse(message.data) as E);
      } catch {
        // a malformed event is skipped; the stream goes on
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  return res;
}

/** A readable message for any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
