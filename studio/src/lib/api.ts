/**
 * Calls the Colloquy API from the page through the public typed client (`colloquy/client`):
 * JSON routes and Server-Sent Event streams, with the API key or user token (kept in
 * sessionStorage, for this tab only) as a bearer token. A 401 fires `colloquy:auth-required`
 * (its detail: the server's message) so that the page can ask for the key or token.
 * @module
 */
import { ColloquyClientError, createClient, type ColloquyClient } from 'colloquy/client';

const KEY = 'colloquy.apiKey';

/** The API key or user token of this tab, if the user gave one. */
export function apiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

/** Keeps the API key or token for this tab (or forgets it with null). */
export function setApiKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, key);
}

/** An error answer of the API: its `status`, stable `code` and message (the client's error). */
export const ApiError = ColloquyClientError;
/** An error answer of the API. */
export type ApiError = ColloquyClientError;

/** The page's fetch: tells the page when the server asks for a key or token. */
const watchedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.status === 401) {
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { error?: { message?: string } };
    window.dispatchEvent(
      new CustomEvent('colloquy:auth-required', { detail: body.error?.message ?? '' }),
    );
  }
  return res;
};

let current: { key: string | null; client: ColloquyClient } | undefined;

/** The client of this page's server with the tab's key (a new one when the key changes). */
function client(): ColloquyClient {
  const key = apiKey();
  if (current?.key !== key) {
    const options = { baseUrl: window.location.origin, fetch: watchedFetch };
    current = { key, client: createClient(key ? { ...options, apiKey: key } : options) };
  }
  return current.client;
}

/** GET (or, with a body, POST) a JSON route; throws {@link ApiError} on an error status. */
export function api<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return client().call<T>(body === undefined ? 'GET' : 'POST', path, body, signal);
}

/** DELETE a JSON route; throws {@link ApiError} on an error status. */
export function apiDelete<T>(path: string): Promise<T> {
  return client().call<T>('DELETE', path);
}

/**
 * Opens an SSE route (POST with `body`, else GET) and calls `onEvent` with each event; resolves
 * with the response's headers when the stream ends. Aborting `signal` closes the stream (and so
 * stops the run).
 */
export async function streamEvents<E>(
  path: string,
  body: unknown,
  onEvent: (event: E) => void,
  signal: AbortSignal,
): Promise<{ headers: Headers }> {
  const { headers, events } = await client().openEvents(path, body, signal);
  for await (const event of events) onEvent(event as E);
  return { headers };
}

/** A readable message for any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
