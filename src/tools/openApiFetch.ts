/**
 * How the OpenAPI tools reach the network: every request (the spec download and each tool call)
 * has a deadline, follows at most {@link MAX_REDIRECTS} redirects by hand, and, when an
 * allow-list of hosts is given, refuses any URL (first or redirected) whose host is not on it.
 * @module
 */
import { ConfigError } from '../errors.js';

/** The default deadline of one request, in ms (headers and body). */
export const DEFAULT_OPENAPI_TIMEOUT_MS = 30_000;

/** Redirects followed per request at most. */
export const MAX_REDIRECTS = 5;

/** What {@link guardedFetch} needs. */
export interface GuardOptions {
  /** The fetch to call. */
  fetch: typeof fetch;
  /** Deadline in ms for the whole exchange, body included. */
  timeoutMs: number;
  /** Hosts that may be reached (`api.example.com`, `api.example.com:8443`, `*.example.com`); undefined: any. */
  allowedHosts: readonly string[] | undefined;
  /** Who is asking, for error messages (e.g. `openApiTools: fetching the spec`). */
  what: string;
}

/** Whether `url`'s host is on `allowed` (undefined allows every host). */
export function hostAllowed(url: URL, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined) return true;
  const hostname = url.hostname.toLowerCase();
  const host = url.host.toLowerCase();
  return allowed.some((entry) => {
    const want = entry.toLowerCase();
    if (want.startsWith('*.')) return hostname.endsWith(want.slice(1));
    return want === host || want === hostname;
  });
}

/** Throws a ConfigError when `url`'s host is not allowed. */
export function assertHostAllowed(
  url: URL,
  allowed: readonly string[] | undefined,
  what: string,
): void {
  if (hostAllowed(url, allowed)) return;
  throw new ConfigError(
    `${what}: host "${url.host}" of ${url.href} is not in allowedHosts (${allowed!.join(', ') || 'empty'}). ` +
      'Add the host to { allowedHosts } if it is trusted.',
  );
}

/** The response body as text, cut at the deadline like the headers. */
export interface GuardedResponse {
  status: number;
  ok: boolean;
  url: URL;
  text: string;
}

/**
 * Fetches `url` with a deadline of `timeoutMs` over the whole exchange, following redirects by
 * hand (303, and 301/302 after a non-GET, turn into a GET without body, as browsers do) and
 * checking every host against the allow-list. A deadline missed is an error naming the URL.
 */
export async function guardedFetch(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
  options: GuardOptions,
): Promise<GuardedResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = url;
  let request = init;
  try {
    for (let hop = 0; ; hop++) {
      assertHostAllowed(current, options.allowedHosts, options.what);
      const response = await options.fetch(current, { ...request, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) {
          throw new ConfigError(
            `${options.what}: ${url.href} redirected more than ${MAX_REDIRECTS} times (last to ${location}). Use the final URL.`,
          );
        }
        current = new URL(location, current);
        const toGet =
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && request.method !== 'GET');
        if (toGet) {
          const { body: _body, ...rest } = request;
          request = { ...rest, method: 'GET' };
        }
        continue;
      }
      const text = await response.text();
      return { status: response.status, ok: response.ok, url: current, text };
    }
  } catch (error) {
    if (signal.aborted) {
      throw new ConfigError(
        `${options.what}: ${current.href} did not answer within ${options.timeoutMs} ms. ` +
          'Check that the server is up, or raise { timeoutMs }.',
        { cause: error },
      );
    }
    throw error;
  }
}
