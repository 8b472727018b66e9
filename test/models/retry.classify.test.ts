import { ModelTimeoutError } from '@openai/agents-core';
import type { RetryPolicyContext } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  attachedRetryDecision,
  attachRetryDecision,
  classifyModelError,
  colloquyRetryPolicy,
  RETRYABLE_STATUSES,
  retrySettings,
} from '../../src/models/retry.js';

const context = (
  error: unknown,
  normalized: Partial<RetryPolicyContext['normalized']> = {},
): RetryPolicyContext => ({
  error,
  attempt: 1,
  maxRetries: 3,
  stream: false,
  normalized: { isNetworkError: false, isAbort: false, ...normalized },
});

const named = (name: string, message = name) => Object.assign(new Error(message), { name });

describe('classifyModelError: HTTP statuses', () => {
  it('maps every status from 400 to 599 to retryable exactly when listed', () => {
    for (let status = 400; status < 600; status++) {
      const found = classifyModelError(Object.assign(new Error(`HTTP ${status}`), { status }));
      expect(found, String(status)).toEqual({
        retryable: RETRYABLE_STATUSES.includes(status),
        kind: 'status',
        status,
      });
    }
  });

  it('reads a status from a cause, and prefers the outer one', () => {
    const inner = Object.assign(new Error('inner'), { status: 503 });
    expect(classifyModelError(new Error('outer', { cause: inner }))).toMatchObject({
      status: 503,
      retryable: true,
    });
    const outer = Object.assign(new Error('outer', { cause: inner }), { status: 400 });
    expect(classifyModelError(outer)).toMatchObject({ status: 400, retryable: false });
  });

  it('ignores a status that is not a number', () => {
    expect(classifyModelError({ status: '503', message: 'x' })).toEqual({
      retryable: false,
      kind: 'other',
    });
  });

  it('a status wins over a network-looking message', () => {
    expect(classifyModelError({ status: 401, message: 'fetch failed' })).toMatchObject({
      kind: 'status',
      retryable: false,
    });
  });
});

describe('classifyModelError: network, timeouts, aborts', () => {
  it('retries every known network code', () => {
    for (const code of ['ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'EPIPE']) {
      expect(classifyModelError(Object.assign(new Error('x'), { code })), code).toEqual({
        retryable: true,
        kind: 'network',
      });
    }
    expect(classifyModelError(Object.assign(new Error('x'), { code: 'EACCES' })).kind).toBe(
      'other',
    );
  });

  it('retries by message, by SDK error name and by an isRetryable flag', () => {
    expect(classifyModelError(new Error('Socket hang up')).kind).toBe('network');
    expect(classifyModelError(new Error('other side closed')).kind).toBe('network');
    expect(classifyModelError(named('APIConnectionError', 'boom')).kind).toBe('network');
    expect(classifyModelError({ isRetryable: true, message: 'x' }).kind).toBe('network');
    expect(classifyModelError({ isRetryable: false, message: 'x' }).kind).toBe('other');
  });

  it('classifies timeouts, including one deep in the cause chain', () => {
    expect(classifyModelError(named('APIConnectionTimeoutError'))).toEqual({
      retryable: true,
      kind: 'timeout',
    });
    const timeout = new ModelTimeoutError({ timeoutMs: 5 });
    expect(classifyModelError(new Error('wrap', { cause: timeout })).kind).toBe('timeout');
  });

  it('never retries an abort, whatever else the error says', () => {
    expect(classifyModelError(named('AbortError'))).toEqual({ retryable: false, kind: 'abort' });
    expect(classifyModelError(named('APIUserAbortError'))).toEqual({
      retryable: false,
      kind: 'abort',
    });
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyModelError({ status: 503 }, aborted.signal).kind).toBe('abort');
  });

  it('looks at most six errors down the cause chain', () => {
    let error: unknown = Object.assign(new Error('deep'), { status: 503 });
    for (let i = 0; i < 6; i++) error = new Error(`level ${i}`, { cause: error });
    expect(classifyModelError(error).kind).toBe('other');
  });

  it('treats non-errors as other', () => {
    expect(classifyModelError(undefined)).toEqual({ retryable: false, kind: 'other' });
    expect(classifyModelError('failure')).toEqual({ retryable: false, kind: 'other' });
  });
});

describe('attached retry decisions', () => {
  it('are found on the error or a cause, and stay out of JSON', () => {
    const inner = attachRetryDecision(new Error('inner'), { retry: false, reason: 'refused' });
    const outer = new Error('outer', { cause: inner });
    expect(attachedRetryDecision(outer)).toEqual({ retry: false, reason: 'refused' });
    expect(Object.keys(inner)).not.toContain('retry');
    expect(JSON.stringify(inner)).toBe('{}');
    expect(attachedRetryDecision(new Error('plain'))).toBeUndefined();
    expect(attachRetryDecision('text', { retry: true })).toBe('text');
  });
});

describe('colloquyRetryPolicy decisions', () => {
  it('marks timeouts for unsafe replay and names the reason', async () => {
    const policy = colloquyRetryPolicy();
    expect(await policy(context(named('APIConnectionTimeoutError')))).toEqual({
      retry: true,
      delayMs: undefined,
      approveUnsafeReplay: true,
      reason: 'timeout',
    });
    expect(await policy(context({ status: 502 }))).toMatchObject({
      approveUnsafeReplay: false,
      reason: 'status',
    });
  });

  it("retries what the SDK calls a network error even when we don't", async () => {
    const policy = colloquyRetryPolicy();
    expect(await policy(context(new Error('odd'), { isNetworkError: true }))).toMatchObject({
      retry: true,
      reason: 'other',
    });
    expect(await policy(context(new Error('odd')))).toBe(false);
  });

  it('uses Retry-After for an attached decision without its own delay', async () => {
    const policy = colloquyRetryPolicy({ maxRetryAfterMs: 1_000 });
    const error = attachRetryDecision(new Error('x'), { retry: true, reason: 'same profile' });
    expect(await policy(context(error, { retryAfterMs: 4_000 }))).toEqual({
      retry: true,
      reason: 'same profile',
      delayMs: 1_000,
    });
  });
});

describe('retrySettings', () => {
  it('passes only the backoff fields given, and a working policy', async () => {
    const settings = retrySettings({ maxRetries: 2, initialDelayMs: 10, jitter: false });
    expect(settings.maxRetries).toBe(2);
    expect(settings.backoff).toEqual({ initialDelayMs: 10, jitter: false });
    expect(await settings.policy!(context({ status: 429 }, { retryAfterMs: 90_000 }))).toEqual(
      expect.objectContaining({ retry: true, delayMs: 60_000 }),
    );
    const capped = retrySettings({ maxRetries: 0, maxRetryAfterMs: 5 });
    expect(await capped.policy!(context({ status: 429 }, { retryAfterMs: 90 }))).toMatchObject({
      delayMs: 5,
    });
  });
});
