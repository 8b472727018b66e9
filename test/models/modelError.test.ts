import { describe, expect, it } from 'vitest';
import { isModelError, markModelError } from '../../src/models/modelError.js';
import { REDACTED } from '../../src/redact.js';

describe('markModelError', () => {
  it('redacts the given secrets and key-like text, and returns the same error', () => {
    const error = Object.assign(new Error('Invalid key my-secret-key-123 for org'), {
      body: { detail: 'Bearer abcdefghijklmnop' },
    });
    expect(markModelError(error, ['my-secret-key-123'])).toBe(error);
    expect(error.message).toBe(`Invalid key ${REDACTED} for org`);
    expect(error.body).toEqual({ detail: REDACTED });
  });

  it('marks without changing what is enumerable or serialized', () => {
    const error = Object.assign(new Error('x'), { status: 500 });
    const before = JSON.stringify(error);
    markModelError(error);
    expect(isModelError(error)).toBe(true);
    expect(JSON.stringify(error)).toBe(before);
    expect(Object.keys(error)).toEqual(['status']);
  });

  it('passes primitives through unmarked', () => {
    expect(markModelError('text')).toBe('text');
    expect(markModelError(null)).toBeNull();
    expect(isModelError('text')).toBe(false);
  });
});

describe('isModelError', () => {
  it('finds the mark down the cause and error chain', () => {
    const provider = markModelError(new Error('429'));
    expect(isModelError(new Error('run failed', { cause: provider }))).toBe(true);
    expect(isModelError({ error: { cause: provider } })).toBe(true);
    expect(isModelError(new Error('ours'))).toBe(false);
  });

  it('stops on a cycle', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(isModelError(a)).toBe(false);
  });
});
