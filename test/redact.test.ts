import { describe, expect, it } from 'vitest';
import { isSecretField, REDACTED, redactSecrets, redactString } from '../src/redact.js';

describe('isSecretField', () => {
  it.each(['Authorization', 'api_key', 'x-api-key', 'OPENAI_API_KEY', 'Set-Cookie', 'token'])(
    'treats %s as secret',
    (name) => expect(isSecretField(name)).toBe(true),
  );

  it.each(['model', 'tokens', 'input_tokens', 'author', 'keys', 'secretary'])(
    'leaves %s alone',
    (name) => expect(isSecretField(name)).toBe(false),
  );
});

describe('redactString', () => {
  it('replaces key-like substrings of every known shape', () => {
    const cases = [
      'sk-abcdefghijklmnop1234',
      'sk-ant-api03-abcdefghijklmnopqrst',
      'sk-proj-ABCDEFGHIJKLMNOPQRST',
      'Bearer abc.def.ghi-jkl',
      'ghp_abcdefghijklmnopqrstuvwx',
      'AIzaSyAbcdefghijklmnopqrstu',
      'AKIAABCDEFGHIJKLMNOP',
    ];
    for (const secret of cases) {
      const out = redactString(`before ${secret} after`);
      expect(out, secret).toBe(`before ${REDACTED} after`);
    }
  });

  it('keeps short or ordinary text', () => {
    expect(redactString('sk-short and a task about skis')).toBe('sk-short and a task about skis');
    expect(redactString('Bearer x')).toBe('Bearer x');
  });

  it('removes the exact secrets given, when they are at least 4 characters', () => {
    expect(redactString('pw=hunter2 again hunter2', { secrets: ['hunter2'] })).toBe(
      `pw=${REDACTED} again ${REDACTED}`,
    );
    expect(redactString('abc abc', { secrets: ['abc'] })).toBe('abc abc');
  });
});

describe('redactSecrets', () => {
  it('redacts secret-named fields and key-like strings at any depth, without touching the input', () => {
    const input = {
      headers: { Authorization: 'Bearer sk-abcdefghijklmnop1234', accept: 'json' },
      list: [{ api_key: 'x' }, 'key sk-abcdefghijklmnop1234'],
      empty: { token: '' },
      nothing: { password: null },
      count: 3,
    };
    const out = redactSecrets(input);
    expect(out).toEqual({
      headers: { Authorization: REDACTED, accept: 'json' },
      list: [{ api_key: REDACTED }, `key ${REDACTED}`],
      empty: { token: '' },
      nothing: { password: null },
      count: 3,
    });
    expect(input.headers.Authorization).toBe('Bearer sk-abcdefghijklmnop1234');
  });

  it('handles cycles and shared objects', () => {
    const shared = { note: 'sk-abcdefghijklmnop1234' };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    const out = redactSecrets(cyclic) as Record<string, any>;
    expect(out.self).toBe(out);
    expect(out.a).toBe(out.b);
    expect(out.a.note).toBe(REDACTED);
  });

  it('turns errors into redacted strings and keeps primitives', () => {
    expect(redactSecrets(new Error('bad key sk-abcdefghijklmnop1234'))).toBe(
      `Error: bad key ${REDACTED}`,
    );
    expect(redactSecrets(42)).toBe(42);
    expect(redactSecrets(null)).toBeNull();
    expect(redactSecrets(undefined)).toBeUndefined();
    expect(redactSecrets('my-secret-value', { secrets: ['my-secret-value'] })).toBe(REDACTED);
  });
});
