import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { MemoryTraceStore } from '../../src/stores/traceStore.js';
import { linkTraceStore, traceStoreFor } from '../../src/stores/traceStores.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-trace-stores-'));
  dirs.push(dir);
  return dir;
};

describe('traceStoreFor', () => {
  it('keeps the traces of an in-memory or JSON-file store in memory, one per store, reused', async () => {
    const memory = new MemoryStore();
    const first = await traceStoreFor(memory);
    expect(first).toBeInstanceOf(MemoryTraceStore);
    expect(await traceStoreFor(memory)).toBe(first);
    expect(await traceStoreFor(new MemoryStore())).not.toBe(first);
    const files = new JsonFileStore({ dir: tempDir() });
    expect(await traceStoreFor(files)).toBeInstanceOf(MemoryTraceStore);
  });

  it('puts the traces of a SQLite file store in the same file', async () => {
    const file = path.join(tempDir(), 'c.db');
    const threads = new SqliteStore({ path: file });
    const traces = await traceStoreFor(threads);
    expect(traces.kind).toBe('sqlite');
    expect(await traceStoreFor(threads)).toBe(traces);
    await traces.close();
    await threads.close();
    const db = new Database(file, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    db.close();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['threads']));
    expect(tables.some((t) => /trace/.test(t.name))).toBe(true);
  });

  it('keeps the traces of an in-memory SQLite store in memory', async () => {
    const threads = new SqliteStore({ path: ':memory:' });
    expect(await traceStoreFor(threads)).toBeInstanceOf(MemoryTraceStore);
    await threads.close();
  });

  it('returns the trace store a backend linked', async () => {
    const threads = new MemoryStore();
    const linked = new MemoryTraceStore();
    linkTraceStore(threads, linked);
    expect(await traceStoreFor(threads)).toBe(linked);
  });
});
