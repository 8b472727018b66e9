/**
 * Retry decisions for model calls, made through the Agents SDK's retry settings
 * (`modelSettings.retry = { maxRetries, backoff, policy }`): the SDK waits (exponential backoff with
 * jitter, or the server's `Retry-After` / `retry-after-ms`) and repeats the call; this module only
 * decides whether an error is worth repeating.
 * @module
 */
import { ModelTimeoutError } from '@openai/agents-core';
import type { ModelRetrySettings, RetryDecision, RetryPolicy } from '@openai/agents-core';

/** HTTP statuses that are retried (timeouts, conflicts, rate limits, server errors). */
export const RETRYABLE_STATUSES: readonly number[] = [408, 409, 429, 500, 502, 503, 504, 529];

const NETWORK_CODES = new Set([
  'ECONNABORTED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** What {@link classifyModelError} found out about a failed model call. */
export interface ModelErrorClass {
  /** Whether repeating the call may succeed. */
  retryable: boolean;
  /** `status` (HTTP), `network`, `timeout`, `abort` or `other`. */
  kind: 'status' | 'network' | 'timeout' | 'abort' | 'other';
  /** The HTTP status, when the provider gave one. */
  status?: number;
}

/** The decision a {@link FallbackModel} attaches to an error it rethrows, read by the policy. */
export interface AttachedRetryDecision {
  retry: boolean;
  /** An explicit delay (0 when switching to a fallback profile). */
  delayMs?: number;
  /** Set for timeouts, whose replay the SDK only allows with approval. */
  approveUnsafeReplay?: boolean;
  reason?: string;
}

const DECISION = Symbol.for('colloquy.retryDecision');

function walkErrors(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && typeof current === 'object' && chain.length < 6;) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function field<T>(error: unknown, name: string, type: string): T | undefined {
  for (const item of walkErrors(error)) {
    const value = (item as Record<string, unknown>)[name];
    if (typeof value === type) return value as T;
  }
  return undefined;
}

/**
 * Classifies a model-call error: HTTP 408/409/429/5xx, network failures and timeouts are
 * retryable; aborts and other errors are not. Pass the request's signal so that a timeout that
 * aborted the call (the SDK's `modelSettings.timeoutMs`) is told apart from a user abort.
 */
export function classifyModelError(error: unknown, signal?: AbortSignal): ModelErrorClass {
  const chain = walkErrors(error);
  if (
    chain.some((item) => item instanceof ModelTimeoutError) ||
    signal?.reason instanceof ModelTimeoutError
  ) {
    return { retryable: true, kind: 'timeout' };
  }
  const names = chain.map((item) => (item as Error).name);
  if (names.includes('APIConnectionTimeoutError')) return { retryable: true, kind: 'timeout' };
  if (signal?.aborted || names.includes('AbortError') || names.includes('APIUserAbortError')) {
    return { retryable: false, kind: 'abort' };
  }
  const status =
    field<number>(error, 'status', 'number') ?? field<number>(error, 'statusCode', 'number');
  if (status !== undefined)
    return { retryable: RETRYABLE_STATUSES.includes(status), kind: 'status', status };
  const code = field<string>(error, 'code', 'string');
  const message = chain
    .map((item) => String((item as Error).message ?? '').toLowerCase())
    .join(' ');
  if (
    names.includes('APIConnectionError') ||
    (code !== undefined && NETWORK_CODES.has(code)) ||
    /fetch failed|socket hang up|network error|connection error|other side closed|terminated/.test(
      message,
    ) ||
    field<boolean>(error, 'isRetryable', 'boolean') === true
  ) {
    return { retryable: true, kind: 'network' };
  }
  return { retryable: false, kind: 'other' };
}

/** Attaches a retry decision to an error (non-enumerable), for {@link colloquyRetryPolicy}. */
export function attachRetryDecision<E>(error: E, decision: AttachedRetryDecision): E {
  if (error && typeof error === 'object') {
    Object.defineProperty(error, DECISION, {
      value: decision,
      configurable: true,
      enumerable: false,
    });
  }
  return error;
}

/** The decision attached to an error or one of its causes, if any. */
export function attachedRetryDecision(error: unknown): AttachedRetryDecision | undefined {
  for (const item of walkErrors(error)) {
    const decision = (item as Record<symbol, unknown>)[DECISION];
    if (decision) return decision as AttachedRetryDecision;
  }
  return undefined;
}

/** Options of {@link colloquyRetryPolicy}. */
export interface ColloquyRetryPolicyOptions {
  /** The longest Retry-After honoured, in ms (default 60000); longer waits are cut to this. */
  maxRetryAfterMs?: number;
}

/**
 * The SDK retry policy Colloquy uses: it follows the decision a FallbackModel attached to the
 * error (retry, switch to the fallback at once, or stop), and otherwise retries 408/409/429/5xx,
 * network errors and timeouts. The delay is the server's Retry-After (capped), else the SDK's
 * exponential backoff with jitter.
 */
export function colloquyRetryPolicy(options: ColloquyRetryPolicyOptions = {}): RetryPolicy {
  const cap = options.maxRetryAfterMs ?? 60_000;
  return (context): RetryDecision => {
    const attached = attachedRetryDecision(context.error);
    const retryAfterMs = context.normalized.retryAfterMs;
    const delayMs = retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, cap);
    if (attached) {
      if (!attached.retry) return false;
      return { ...attached, delayMs: attached.delayMs ?? delayMs };
    }
    const found = classifyModelError(context.error);
    if (!found.retryable && !context.normalized.isNetworkError) return false;
    return {
      retry: true,
      delayMs,
      approveUnsafeReplay: found.kind === 'timeout',
      reason: found.kind,
    };
  };
}

/** Options of {@link retrySettings}. */
export interface RetrySettingsOptions extends ColloquyRetryPolicyOptions {
  /** Retries after the first attempt, for the whole call including fallbacks. */
  maxRetries: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  multiplier?: number;
  jitter?: boolean;
}

/** Builds the SDK's `modelSettings.retry` with {@link colloquyRetryPolicy}. */
export function retrySettings(options: RetrySettingsOptions): ModelRetrySettings {
  const backoff = {
    initialDelayMs: options.initialDelayMs,
    maxDelayMs: options.maxDelayMs,
    multiplier: options.multiplier,
    jitter: options.jitter,
  };
  const defined = Object.fromEntries(
    Object.entries(backoff).filter(([, value]) => value !== undefined),
  );
  return {
    maxRetries: options.maxRetries,
    backoff: defined,
    policy: colloquyRetryPolicy({ maxRetryAfterMs: options.maxRetryAfterMs }),
  };
}
