// Trace bounds and retention of the in-process trace stores (memory, which the memory and
// JSON-file stores use, and SQLite); Redis and Postgres in traceBounds.int.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { SqliteTraceStore } from '../../src/stores/sqliteTraces.js';
import {
  boundValue,
  cutText,
  DEFAULT_TRACE_RETENTION,
  resolveRetention,
} from '../../src/stores/traceBounds.js';
import { MemoryTraceStore, type TraceStore } from '../../src/stores/traceStore.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { excessTracesGo, hugeTraceIsCut, oldTracesGo } from './traceBounds.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-trace-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const backends: Array<[string, (options?: object) => TraceStore]> = [
  ['MemoryTraceStore', (options = {}) => new MemoryTraceStore(options)],
  [
    'SqliteTraceStore',
    (options = {}) => new SqliteTraceStore({ path: path.join(dir, `t${n++}.db`), ...options }),
  ],
];

for (const [name, create] of backends) {
  describe(`${name} bounds and retention`, () => {
    it('cuts every text of a trace with a 3 MB error to 2,000 characters', async () => {
      const store = create();
      await hugeTraceIsCut(store);
      await store.close();
    });

    it('drops the oldest traces beyond retention.maxTraces', async () => {
      const store = create({ retention: { maxTraces: 3 } });
      await excessTracesGo(store);
      await store.close();
    });

    it('drops traces older than the default 30 days', async () => {
      const store = create();
      await oldTracesGo(store);
      await store.close();
    });

    it('refuses a bad retention naming the field', () => {
      expect(() => create({ retention: { maxTraces: -1 } })).toThrow(ConfigError);
      expect(() => create({ retention: { maxAgeMs: 1.5 } })).toThrow(/retention\.maxAgeMs/);
    });
  });
}

describe('trace bounds', () => {
  it('documents its defaults: 30 days, 10,000 traces', () => {
    expect(DEFAULT_TRACE_RETENTION).toEqual({ maxAgeMs: 2_592_000_000, maxTraces: 10_000 });
    expect(resolveRetention('X', { maxTraces: 0 })).toEqual({
      maxAgeMs: 2_592_000_000,
      maxTraces: 0,
    });
  });

  it('never splits a surrogate pair and flattens deep nesting', () => {
    const text = `${'a'.repeat(1999)}😀tail`;
    expect(cutText(text)).toBe(`${'a'.repeat(1999)}…`);
    const deep = { a: { b: { c: { d: { e: { f: 'x'.repeat(5000) } } } } } };
    const bounded = boundValue(deep) as { a: { b: { c: { d: { e: unknown } } } } };
    expect(typeof bounded.a.b.c.d.e).toBe('string');
    expect((bounded.a.b.c.d.e as string).length).toBe(2001);
  });

  it('the JSON-file store keeps its traces in a bounded memory store', async () => {
    const store = new JsonFileStore({ dir: path.join(dir, 'json') });
    const traces = await traceStoreFor(store);
    await hugeTraceIsCut(traces);
    await oldTracesGo(traces);
    await store.close();
  });
});
