// The shared argument checks and errors, now public for other stores: exact ranges and codes.
import { describe, expect, it } from 'vitest';
import { ConfigError, SerializationError, StoreError } from '../../src/errors.js';
import {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkpointTime,
  checkRollback,
  isArchiveThreadId,
  jsonCopy,
  resolveRange,
  serializeItem,
  storeFailure,
  threadNotFound,
} from '../../src/stores/common.js';
import type { ThreadItem } from '../../src/stores/item.js';

describe('resolveRange', () => {
  it.each([
    [{}, { start: 0, end: 10 }],
    [{ from: 3 }, { start: 3, end: 10 }],
    [
      { from: 3, limit: 2 },
      { start: 3, end: 5 },
    ],
    [
      { from: 8, limit: 5 },
      { start: 8, end: 10 },
    ],
    [{ from: 20 }, { start: 10, end: 10 }],
    [{ limit: 0 }, { start: 0, end: 0 }],
    [{ newest: 4 }, { start: 6, end: 10 }],
    [{ newest: 40 }, { start: 0, end: 10 }],
    [
      { newest: 2, from: 1, limit: 1 },
      { start: 8, end: 10 },
    ],
  ])('resolves %j on 10 items to %j', (range, span) => {
    expect(resolveRange('t', 10, range)).toEqual(span);
  });

  it.each([{ from: -1 }, { limit: 1.5 }, { newest: Number.NaN }, { from: Infinity }])(
    'refuses %j with a ConfigError naming the field',
    (range) => {
      const error = (() => {
        try {
          resolveRange('t1', 10, range);
        } catch (e) {
          return e as ConfigError;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error?.message).toContain(`range.${Object.keys(range)[0]}`);
      expect(error?.message).toContain('readItems("t1")');
    },
  );
});

describe('checkFork and checkRollback', () => {
  it('accept the bounds and refuse anything outside them', () => {
    expect(() => checkFork('s', 't', 0, 3, false)).not.toThrow();
    expect(() => checkFork('s', 't', 3, 3, false)).not.toThrow();
    expect(() => checkFork('s', 't', 4, 3, false)).toThrow(/between 0 and 3/);
    expect(() => checkFork('s', 't', 1.5, 3, false)).toThrow(ConfigError);
    expect(() => checkFork('s', 't', 1, 3, true)).toThrow(/"t" already exists/);
    expect(() => checkRollback('t', 0, 2)).not.toThrow();
    expect(() => checkRollback('t', 2, 2)).not.toThrow();
    expect(() => checkRollback('t', 3, 2)).toThrow(/out of range; the thread has 2 items/);
    expect(() => checkRollback('t', -1, 2)).toThrow(ConfigError);
  });
});

describe('errors for missing threads and taken checkpoints', () => {
  it('carry the stable codes and name the value', () => {
    const missing = threadNotFound('fork', 'ghost');
    expect(missing.code).toBe('THREAD_NOT_FOUND');
    expect(missing.message).toContain('fork: thread "ghost" does not exist');
    const taken = checkpointExists('cp1');
    expect(taken).toBeInstanceOf(ConfigError);
    expect(taken.message).toContain('"cp1" already exists');
  });
});

describe('archive ids', () => {
  it('are unique, marked, and recognised', () => {
    const a = archiveThreadId('chat__A__B');
    const b = archiveThreadId('chat__A__B');
    expect(a).not.toBe(b);
    expect(a.startsWith('chat__A__B~reset~')).toBe(true);
    expect(isArchiveThreadId(a)).toBe(true);
    expect(isArchiveThreadId('chat__A__B')).toBe(false);
  });
});

describe('serializeItem', () => {
  it('serializes plain items exactly', () => {
    const item: ThreadItem = { id: 'i', item: { role: 'user', content: 'ü ✓' } };
    expect(JSON.parse(serializeItem('t', item))).toEqual(item);
  });

  it('refuses BigInt, cycles and things that are not items, with a SerializationError', () => {
    const big = { id: 'b', item: { role: 'user', content: 1n } } as unknown as ThreadItem;
    expect(() => serializeItem('t', big)).toThrow(SerializationError);
    const cyclic: Record<string, unknown> = { id: 'c' };
    cyclic.item = cyclic;
    expect(() => serializeItem('t', cyclic as unknown as ThreadItem)).toThrow(
      /item "c" cannot be serialized/,
    );
    expect(() => serializeItem('t', undefined as unknown as ThreadItem)).toThrow(
      /got undefined instead of a ThreadItem/,
    );
    expect(() => serializeItem('t', { item: {} } as unknown as ThreadItem)).toThrow(
      /instead of a ThreadItem/,
    );
  });
});

describe('storeFailure, checkpointTime and jsonCopy', () => {
  it('wrap a failure as a StoreError with the hint that fits', () => {
    const cause = new Error('disk full');
    const permanent = storeFailure('SQLite', 'append("t")', cause);
    expect(permanent).toBeInstanceOf(StoreError);
    expect(permanent).toMatchObject({ transient: false, cause });
    expect(permanent.message).toBe(
      'SQLite store: append("t") failed: disk full. Check the store path, permissions and disk space.',
    );
    const transient = storeFailure('Redis', 'read', 'reset', true);
    expect(transient.transient).toBe(true);
    expect(transient.message).toContain('withRetry()');
  });

  it('read a checkpoint time, refusing a bad date', () => {
    const base = { checkpointId: 'c', chatId: 'x', label: null, threads: {} };
    expect(checkpointTime({ ...base, createdAt: '2025-01-01T00:00:00.000Z' })).toBe(
      Date.UTC(2025, 0, 1),
    );
    expect(() => checkpointTime({ ...base, createdAt: 'yesterday' })).toThrow(
      /"yesterday" is not a date/,
    );
  });

  it('copy through JSON, dropping undefined and detaching the copy', () => {
    const source = { a: [1, { b: 2 }], gone: undefined };
    const copy = jsonCopy(source);
    expect(copy).toEqual({ a: [1, { b: 2 }] });
    expect('gone' in copy).toBe(false);
    (copy.a[1] as { b: number }).b = 3;
    expect((source.a[1] as { b: number }).b).toBe(2);
  });
});
