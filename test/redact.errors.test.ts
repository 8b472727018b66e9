import { describe, expect, it } from 'vitest';
import { envSecrets, REDACTED, redactErrorInPlace, redactSecrets } from '../src/redact.js';

const KEY = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUV';

describe('redactErrorInPlace', () => {
  it('rewrites the message and stack of the error itself', () => {
    const error = new Error(`401 from provider: key ${KEY} is invalid`);
    const same = redactErrorInPlace(error);
    expect(same).toBe(error);
    expect(error.message).toBe(`401 from provider: key ${REDACTED} is invalid`);
    expect(error.stack).not.toContain(KEY);
  });

  it('keeps structural fields (name, code, status, type) untouched', () => {
    const error = Object.assign(new Error('boom'), {
      code: 'sk-ant-0123456789abcdefghij',
      status: 401,
      type: 'Bearer abcdefghijkl',
    });
    redactErrorInPlace(error);
    expect(error.code).toBe('sk-ant-0123456789abcdefghij');
    expect(error.type).toBe('Bearer abcdefghijkl');
    expect(error.status).toBe(401);
  });

  it('redacts plain data it carries (a parsed error body) and exact secrets given', () => {
    const error = Object.assign(new Error('bad request for tenant s3cr3t-value'), {
      body: { error: { message: `Incorrect API key: ${KEY}` }, headers: { 'x-api-key': 'abc' } },
      responseText: 'token=s3cr3t-value',
    });
    redactErrorInPlace(error, { secrets: ['s3cr3t-value'] });
    expect(error.message).toBe(`bad request for tenant ${REDACTED}`);
    expect(error.body).toEqual({
      error: { message: `Incorrect API key: ${REDACTED}` },
      headers: { 'x-api-key': REDACTED },
    });
    expect(error.responseText).toBe(`token=${REDACTED}`);
  });

  it('leaves class instances (Headers, Maps) alone so that retry logic can read them', () => {
    const headers = new Headers({ 'retry-after': '2' });
    const map = new Map([['k', KEY]]);
    const error = Object.assign(new Error('rate limited'), { headers, map });
    redactErrorInPlace(error);
    expect(error.headers).toBe(headers);
    expect(error.headers.get('retry-after')).toBe('2');
    expect(error.map).toBe(map);
  });

  it('follows the cause chain and an `error` field, and stops on a cycle', () => {
    const root = new Error(`root ${KEY}`);
    const wrapped = Object.assign(new Error('middle'), { error: root });
    const top = new Error('top', { cause: wrapped });
    (root as { cause?: unknown }).cause = top; // a cycle
    redactErrorInPlace(top);
    expect(root.message).toBe(`root ${REDACTED}`);
    expect(top.message).toBe('top');
  });

  it('does not throw on a read-only field and still redacts the others', () => {
    const error = new Error(`key ${KEY}`);
    Object.defineProperty(error, 'frozen', { value: `also ${KEY}`, writable: false });
    expect(() => redactErrorInPlace(error)).not.toThrow();
    expect(error.message).toBe(`key ${REDACTED}`);
    expect((error as unknown as { frozen: string }).frozen).toBe(`also ${KEY}`);
  });

  it('accepts non-objects as they are', () => {
    expect(redactErrorInPlace('plain')).toBe('plain');
    expect(redactErrorInPlace(undefined)).toBeUndefined();
    expect(redactErrorInPlace(42)).toBe(42);
  });
});

describe('envSecrets', () => {
  it('collects values of secret-named variables of 8 characters or more', () => {
    const secrets = envSecrets({
      OPENAI_API_KEY: 'abcdefgh1',
      GITHUB_TOKEN: 'tok-123456',
      DB_PASSWORD: 'short',
      MY_SECRET: 'the-secret-value',
      ANTHROPIC_APIKEY: 'anthropic-xyz',
      HOME: '/home/someone-long',
      TOKEN_FILE: '/path/to/a/file',
    });
    expect(secrets.sort()).toEqual(
      ['abcdefgh1', 'anthropic-xyz', 'the-secret-value', 'tok-123456'].sort(),
    );
  });

  it('matches names case-insensitively and skips unset variables', () => {
    expect(envSecrets({ my_api_key: 'lowercase-key', OTHER_TOKEN: undefined })).toEqual([
      'lowercase-key',
    ]);
    expect(envSecrets({})).toEqual([]);
  });
});

describe('redactSecrets field rules', () => {
  it('keeps empty, null and undefined secret fields visible (nothing to hide)', () => {
    expect(redactSecrets({ apiKey: '', token: null, password: undefined })).toEqual({
      apiKey: '',
      token: null,
      password: undefined,
    });
  });

  it('redacts secret fields whatever their value type', () => {
    expect(redactSecrets({ cookie: ['a=1', 'b=2'], secret: { nested: 1 }, bearer: 7 })).toEqual({
      cookie: REDACTED,
      secret: REDACTED,
      bearer: REDACTED,
    });
  });

  it('spots secret field names written with dashes, underscores or capitals', () => {
    const out = redactSecrets({
      'Proxy-Authorization': 'Basic abc',
      Set_Cookie: 'session=1',
      CLIENT_SECRET: 'x',
      refresh_token: 'r',
      tokens: 12,
    });
    expect(out).toEqual({
      'Proxy-Authorization': REDACTED,
      Set_Cookie: REDACTED,
      CLIENT_SECRET: REDACTED,
      refresh_token: REDACTED,
      tokens: 12,
    });
  });
});
