import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { needsChatLease } from '../../src/agency/chatLease.js';
import { storeCapabilities } from '../../src/stores/capabilities.js';
import { CallbackStore } from '../../src/stores/callback.js';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { MemoryLeases } from '../../src/stores/lease.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { withRetry } from '../../src/stores/retrying.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-caps-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('storeCapabilities', () => {
  it('gives a store without declared capabilities the safe default', () => {
    const plain = { kind: 'custom' } as unknown as ThreadStore;
    expect(storeCapabilities(plain)).toEqual({
      leases: false,
      appendMany: false,
      traces: false,
      crossProcess: false,
    });
    const equipped = {
      kind: 'custom',
      leases: new MemoryLeases(),
      appendMany: async () => [],
    } as unknown as ThreadStore;
    expect(storeCapabilities(equipped)).toEqual({
      leases: true,
      appendMany: true,
      traces: false,
      crossProcess: false,
    });
  });

  it('reads what the built-in stores declare, instance by instance', () => {
    const file = new SqliteStore({ path: path.join(dir, 'a.db') });
    const inMemory = new SqliteStore({ path: ':memory:' });
    expect(storeCapabilities(file)).toEqual({
      leases: true,
      appendMany: true,
      traces: true,
      crossProcess: false,
    });
    expect(storeCapabilities(inMemory).traces).toBe(false);
    expect(storeCapabilities(new MemoryStore()).leases).toBe(false);
    expect(storeCapabilities(new JsonFileStore({ dir })).leases).toBe(true);
    const callback = new CallbackStore({ load: () => null, save: () => undefined });
    expect(storeCapabilities(callback)).toEqual({
      leases: false,
      appendMany: false,
      traces: false,
      crossProcess: false,
    });
  });

  it('is forwarded by withRetry, appendMany included', () => {
    const sqlite = new SqliteStore({ path: ':memory:' });
    const wrapped = withRetry(sqlite);
    expect(storeCapabilities(wrapped)).toEqual(storeCapabilities(sqlite));
    expect(typeof wrapped.appendMany).toBe('function');
    expect(withRetry(new MemoryStore()).appendMany).toBeUndefined();
  });
});

describe('needsChatLease reads the leases capability, not kind', () => {
  it('holds chat leases on stores whose leases reach beyond the store object', () => {
    expect(needsChatLease(new SqliteStore({ path: ':memory:' }))).toBe(true);
    expect(needsChatLease(new JsonFileStore({ dir }))).toBe(true);
    expect(needsChatLease(new MemoryStore())).toBe(false);
    expect(needsChatLease(withRetry(new MemoryStore()))).toBe(false);
    expect(needsChatLease(withRetry(new SqliteStore({ path: ':memory:' })))).toBe(true);
    // A store named like the memory store but declaring leases gets them: kind decides nothing.
    const named = { kind: 'memory', leases: new MemoryLeases() } as unknown as ThreadStore;
    expect(needsChatLease(named)).toBe(true);
  });
});
