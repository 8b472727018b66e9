import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { openDefaultStore } from '../../src/stores/defaultStore.js';
import { defaultStorePath, openStore } from '../../src/stores/openStore.js';
import type { ThreadStore } from '../../src/stores/types.js';

const dirs: string[] = [];
const stores: ThreadStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-open-'));
  dirs.push(dir);
  return dir;
}

async function open(spec: string | undefined, env?: NodeJS.ProcessEnv): Promise<ThreadStore> {
  const store = await openStore(spec, env);
  stores.push(store);
  return store;
}

const hello = [{ id: 'h', item: { role: 'user' as const, content: 'hello' } }];

describe('openStore', () => {
  it('opens the kind of store each spec names', async () => {
    const dir = tempDir();
    expect((await open('memory')).kind).toBe('memory');
    const sqlite = await open(`sqlite:${path.join(dir, 'a', 'b.db')}`);
    expect(sqlite.kind).toBe('sqlite');
    await sqlite.append('t', hello, { expectedVersion: 0 });
    expect(existsSync(path.join(dir, 'a', 'b.db'))).toBe(true);
    expect((await open(path.join(dir, 'bare.db'))).kind).toBe('sqlite');
    expect((await open('sqlite::memory:')).kind).toBe('sqlite');
    const json = await open(`dir:${path.join(dir, 'json')}`);
    expect(json.kind).toBe('jsonfile');
    await json.append('t', hello, { expectedVersion: 0 });
    expect(existsSync(path.join(dir, 'json'))).toBe(true);
    // Network stores connect lazily: opening them needs no server.
    for (const spec of ['redis://127.0.0.1:1', 'rediss://127.0.0.1:1'])
      expect((await open(spec)).kind).toBe('redis');
    for (const spec of ['postgres://u@127.0.0.1:1/db', 'postgresql://u@127.0.0.1:1/db']) {
      expect((await open(spec)).kind).toBe('postgres');
    }
  });

  it('rejects an unknown spec with a message listing the accepted forms', async () => {
    for (const spec of ['mysql://localhost/db', 'mongodb+srv://x', 'file:x.db']) {
      const error = await openStore(spec).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(`Store "${spec}" is not a store spec`);
      for (const form of ['memory', 'sqlite:PATH', 'dir:PATH', 'redis://', 'postgres://'])
        expect(message).toContain(form);
    }
  });

  it('rejects sqlite: and dir: without a path', async () => {
    await expect(openStore('sqlite:')).rejects.toThrow(
      'Store "sqlite:" names no path: write sqlite:PATH.',
    );
    await expect(openStore('sqlite:   ')).rejects.toThrow(/names no path/);
    await expect(openStore('dir:')).rejects.toThrow('Store "dir:" names no path: write dir:PATH.');
  });

  it('opens the default SQLite store at $COLLOQUY_DB, else ./.colloquy/colloquy.db', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'nested', 'default.db');
    expect(defaultStorePath({ COLLOQUY_DB: file })).toBe(file);
    expect(defaultStorePath({})).toBe(path.resolve('.colloquy', 'colloquy.db'));
    expect(defaultStorePath({ COLLOQUY_DB: '  ' })).toBe(path.resolve('.colloquy', 'colloquy.db'));
    expect(defaultStorePath()).toBe(':memory:'); // vitest.config.ts sets COLLOQUY_DB

    const specs = [undefined, '', ' '];
    for (const [i, spec] of specs.entries()) {
      const store = await open(spec, { COLLOQUY_DB: file });
      expect(store.kind).toBe('sqlite');
      await store.append(`t${i}`, hello, { expectedVersion: 0 });
    }
    expect(existsSync(file)).toBe(true);
    const reopened = openDefaultStore({ COLLOQUY_DB: file });
    stores.push(reopened);
    expect((await reopened.listThreads()).map((r) => r.threadId)).toEqual(['t0', 't1', 't2']);
  });
});
