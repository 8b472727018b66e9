import { ModelTimeoutError } from '@openai/agents-core';
import type { RetryPolicyContext } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  attachRetryDecision,
  classifyModelError,
  colloquyRetryPolicy,
} from '../../src/models/retry.js';

const context = (error: unknown, retryAfterMs?: number): RetryPolicyContext => ({
  error,
  attempt: 1,
  maxRetries: 3,
  stream: false,
  normalized: { isNetworkError: false, isAbort: false, retryAfterMs },
});

describe('classifyModelError', () => {
  it('retries 429 and 5xx but not 400', () => {
    expect(classifyModelError({ status: 429 })).toMatchObject({ retryable: true, status: 429 });
    expect(classifyModelError({ statusCode: 503 })).toMatchObject({ retryable: true, status: 503 });
    expect(classifyModelError({ status: 400 }).retryable).toBe(false);
  });

  it('retries a refused connection found in the cause chain', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(classifyModelError(error)).toMatchObject({ retryable: true, kind: 'network' });
  });

  it('tells a timeout from a user abort by the signal reason', () => {
    const controller = new AbortController();
    controller.abort(new ModelTimeoutError({ timeoutMs: 10 }));
    expect(classifyModelError(new Error('aborted'), controller.signal).kind).toBe('timeout');
    const user = new AbortController();
    user.abort();
    expect(classifyModelError(new Error('aborted'), user.signal)).toMatchObject({
      retryable: false,
      kind: 'abort',
    });
  });
});

describe('colloquyRetryPolicy', () => {
  it('honours Retry-After up to the cap', async () => {
    const policy = colloquyRetryPolicy({ maxRetryAfterMs: 5_000 });
    expect(await policy(context({ status: 429 }, 2_000))).toMatchObject({
      retry: true,
      delayMs: 2_000,
    });
    expect(await policy(context({ status: 429 }, 90_000))).toMatchObject({
      retry: true,
      delayMs: 5_000,
    });
  });

  it('follows a decision attached by the FallbackModel', async () => {
    const policy = colloquyRetryPolicy();
    const switching = attachRetryDecision(new Error('500'), { retry: true, delayMs: 0 });
    expect(await policy(context(switching, 3_000))).toMatchObject({ retry: true, delayMs: 0 });
    expect(await policy(context(attachRetryDecision({ status: 500 }, { retry: false })))).toBe(
      false,
    );
  });

  it('does not retry a 401', async () => {
    expect(await colloquyRetryPolicy()(context({ status: 401 }))).toBe(false);
  });
});
