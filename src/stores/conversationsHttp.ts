/**
 * The HTTP side of {@link ConversationsStore}: one client for the OpenAI Conversations API as
 * OpenAI (`https://api.openai.com/v1`) and Azure AI Foundry / Azure OpenAI (`…/openai/v1`) serve
 * it. It authenticates (bearer key, `api-key` header or an Entra ID token), retries 429 and 5xx
 * answers honouring `retry-after` within a bound (with `p-retry`), and turns every other failure
 * into a {@link StoreError} naming the request and the fix.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { ConfigError, StoreError } from '../errors.js';
import { TRANSIENT_NETWORK_CODES } from './common.js';

/** How requests to the Conversations API authenticate and retry. */
export interface ConversationsHttpOptions {
  /** API root, e.g. `https://api.openai.com/v1` or `https://NAME.openai.azure.com/openai/v1`; its query (e.g. `?api-version=preview`) is sent with every request. */
  baseURL: string;
  /** Key sent as a bearer token (OpenAI) or as `api-key` (Azure); see `apiKeyHeader`. */
  apiKey?: string;
  /** Where `apiKey` goes: `authorization` (bearer) or `api-key`. Default: `api-key` for Azure hosts and `AZURE_OPENAI_API_KEY`, else bearer. */
  apiKeyHeader?: 'authorization' | 'api-key';
  /** Returns a bearer token for each request (Entra ID); takes precedence over keys. */
  getToken?: () => Promise<string> | string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Retries of a 429, 5xx or dropped connection (default 5). */
  maxRetries?: number;
  /** The longest wait a `retry-after` may ask for; a longer one fails at once (default 30 000 ms). */
  maxRetryWaitMs?: number;
  /** First backoff when the answer names no wait (default 250 ms; doubles, with jitter). */
  retryBaseMs?: number;
  /** Environment to read keys from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** The error body OpenAI and Azure send. */
interface ApiErrorBody {
  error?: { message?: string; code?: string | null; type?: string };
}

/** A non-2xx answer, kept for the caller (404s are meaningful to the store). */
export class ConversationsHttpError extends StoreError {
  constructor(
    message: string,
    readonly status: number,
    transient: boolean,
  ) {
    super(message, { transient });
  }
}

/** Answers retried for reads and deletes (repeating them is harmless). */
const RETRIED = new Set([408, 429, 500, 502, 503, 504]);
/**
 * Answers retried for writes: only those after which the service did not act. A 500, 502 or 504
 * may come after the items were added, and adding them again would write them twice.
 */
const RETRIED_WRITES = new Set([429, 503]);

/** A small typed client for the routes the store uses. */
export class ConversationsHttp {
  readonly baseURL: string;
  readonly #query: URLSearchParams;
  readonly #options: ConversationsHttpOptions;
  readonly #auth: () => Promise<Record<string, string>>;

  constructor(options: ConversationsHttpOptions) {
    let url: URL;
    try {
      url = new URL(options.baseURL);
    } catch {
      throw new ConfigError(
        `ConversationsStore: baseURL "${options.baseURL}" is not a URL. Pass e.g. https://api.openai.com/v1 or https://NAME.openai.azure.com/openai/v1.`,
      );
    }
    this.#query = url.searchParams;
    this.baseURL = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.#options = options;
    this.#auth = authHeaders(options, url.hostname);
  }

  /** Sends one request (retried as the options say) and returns the parsed JSON answer. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<T> {
    const url = new URL(this.baseURL + path);
    for (const [k, v] of this.#query) url.searchParams.set(k, v);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const what = `${method} ${url.pathname}`;
    const maxWait = this.#options.maxRetryWaitMs ?? 30_000;
    const base = this.#options.retryBaseMs ?? 250;
    const doFetch = this.#options.fetch ?? fetch;
    let wait = 0;
    const write = method === 'POST';
    return pRetry(
      async () => {
        let response: Response;
        try {
          response = await doFetch(url, {
            method,
            headers: { 'content-type': 'application/json', ...(await this.#auth()) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code ?? '';
          throw new ConversationsHttpError(
            `${what} at ${this.baseURL} failed: ${(error as Error).message}${code ? ` (${code})` : ''}. Check the base URL and the network.`,
            0,
            write
              ? code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN'
              : TRANSIENT_NETWORK_CODES.has(code) || code === '' || code === 'UND_ERR_SOCKET',
          );
        }
        const text = await response.text();
        if (response.ok) return (text ? JSON.parse(text) : {}) as T;
        wait = retryAfterMs(response.headers) ?? -1;
        throw failure(
          what,
          response.status,
          text,
          (write ? RETRIED_WRITES : RETRIED).has(response.status),
        );
      },
      {
        retries: this.#options.maxRetries ?? 5,
        minTimeout: 0,
        maxTimeout: 0,
        factor: 1,
        shouldRetry: ({ error }) => error instanceof ConversationsHttpError && error.transient,
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (!(error instanceof ConversationsHttpError) || !error.transient) return;
          if (retriesLeft === 0) return;
          const backoff =
            wait >= 0 ? wait : base * 2 ** (attemptNumber - 1) * (0.5 + Math.random());
          if (backoff > maxWait) {
            throw new StoreError(
              `${what}: the service asked to wait ${Math.ceil(backoff / 1000)} s before retrying, longer than maxRetryWaitMs (${maxWait} ms). Retry later or raise maxRetryWaitMs.`,
              { transient: true, cause: error },
            );
          }
          await sleep(backoff);
        },
      },
    );
  }
}

/** The wait an answer asks for: `retry-after-ms`, else `retry-after` in seconds or as a date. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function failure(
  what: string,
  status: number,
  text: string,
  transient: boolean,
): ConversationsHttpError {
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as ApiErrorBody).error?.message ?? message;
  } catch {
    // Not JSON: the raw text (cut) is the message.
  }
  const fix =
    status === 401 || status === 403
      ? 'Check the key (OPENAI_API_KEY, AZURE_OPENAI_API_KEY) or the token getToken returns.'
      : status === 404
        ? 'The conversation or item does not exist (deleted at the service?).'
        : transient
          ? 'The service is busy or failing: the request was retried; try again later.'
          : 'The request was refused: see the message.';
  return new ConversationsHttpError(
    `${what} answered ${status}: ${message} ${fix}`,
    status,
    transient,
  );
}

function authHeaders(
  options: ConversationsHttpOptions,
  host: string,
): () => Promise<Record<string, string>> {
  const env = options.env ?? process.env;
  if (options.getToken) {
    const getToken = options.getToken;
    return async () => ({ authorization: `Bearer ${await getToken()}` });
  }
  const azureHost = /\.(azure\.com|azure\.us|azure\.cn)$/i.test(host);
  const azureKey = env.AZURE_OPENAI_API_KEY;
  const key =
    options.apiKey ??
    (azureHost ? (azureKey ?? env.OPENAI_API_KEY) : (env.OPENAI_API_KEY ?? azureKey));
  const header =
    options.apiKeyHeader ??
    (azureHost ||
    (options.apiKey === undefined &&
      key !== undefined &&
      key === azureKey &&
      key !== env.OPENAI_API_KEY)
      ? 'api-key'
      : 'authorization');
  const headers: Record<string, string> =
    key === undefined
      ? {}
      : header === 'api-key'
        ? { 'api-key': key }
        : { authorization: `Bearer ${key}` };
  return async () => headers;
}
