import { describe, expect, it } from 'vitest';
import {
  AgencyConfigError,
  ColloquyError,
  ConfigError,
  ConflictError,
  docsUrl,
  DOCS_URL,
  errorInfo,
  SerializationError,
  StoreError,
} from '../src/errors.js';

describe('ColloquyError and its subclasses', () => {
  it('carry a stable code, their class name and the cause', () => {
    const cause = new Error('root');
    const cases: Array<[ColloquyError, string, string]> = [
      [new ConfigError('c', { cause }), 'ConfigError', 'CONFIG_INVALID'],
      [new AgencyConfigError('a'), 'AgencyConfigError', 'AGENCY_INVALID'],
      [new StoreError('s'), 'StoreError', 'STORE_ERROR'],
      [new SerializationError('x'), 'SerializationError', 'SERIALIZATION_ERROR'],
      [new ColloquyError('ABORTED', 'stop'), 'ColloquyError', 'ABORTED'],
    ];
    for (const [error, name, code] of cases) {
      expect(error).toBeInstanceOf(ColloquyError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
    }
    expect(cases[0]![0].cause).toBe(cause);
    expect('cause' in cases[1]![0]).toBe(false);
  });

  it('StoreError is permanent unless marked transient', () => {
    expect(new StoreError('s').transient).toBe(false);
    expect(new StoreError('s', { transient: true }).transient).toBe(true);
  });

  it('ConflictError names the thread, both versions and the fix', () => {
    const error = new ConflictError('t1', 3, 5);
    expect(error).toMatchObject({ threadId: 't1', expectedVersion: 3, actualVersion: 5 });
    expect(error.message).toContain('"t1" is at version 5');
    expect(error.message).toContain('expected version 3');
    expect(error.message).toMatch(/re-read the thread and retry/);
  });
});

describe('errorInfo', () => {
  it('keeps name, message and a string code', () => {
    expect(errorInfo(new ConfigError('bad'))).toEqual({
      name: 'ConfigError',
      message: 'bad',
      code: 'CONFIG_INVALID',
    });
    const system = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    expect(errorInfo(system)).toEqual({ name: 'Error', message: 'refused', code: 'ECONNREFUSED' });
  });

  it('drops a code that is not a string, and describes non-errors', () => {
    const numeric = Object.assign(new TypeError('t'), { code: 42 });
    expect(errorInfo(numeric)).toEqual({ name: 'TypeError', message: 't' });
    expect(errorInfo('plain')).toEqual({ name: 'Error', message: 'plain' });
    expect(errorInfo(undefined)).toEqual({ name: 'Error', message: 'undefined' });
    expect(JSON.parse(JSON.stringify(errorInfo(new StoreError('s'))))).toEqual({
      name: 'StoreError',
      message: 's',
      code: 'STORE_ERROR',
    });
  });
});

describe('docsUrl', () => {
  it('links a docs page on the public repository', () => {
    expect(DOCS_URL).toBe('https://github.com/colloquy-dev/colloquy/blob/main/docs');
    expect(docsUrl('stores.md')).toBe(
      'https://github.com/colloquy-dev/colloquy/blob/main/docs/stores.md',
    );
  });
});
