import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

function dbFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-leases-'));
  dirs.push(dir);
  return path.join(dir, 'leases.db');
}

describe('SQLite leases', () => {
  it('give a key to one owner at a time; the owner may take it again', async () => {
    const store = new SqliteStore({ path: dbFile() });
    const leases = store.leases!;
    expect(await leases.acquire('k', 'a', 10_000)).toBe(true);
    expect(await leases.acquire('k', 'b', 10_000)).toBe(false);
    expect(await leases.acquire('k', 'a', 10_000)).toBe(true);
    expect(await leases.acquire('other', 'b', 10_000)).toBe(true);
    await store.close();
  });

  it('are shared by two stores on the same file', async () => {
    const file = dbFile();
    const one = new SqliteStore({ path: file });
    const two = new SqliteStore({ path: file });
    expect(await one.leases!.acquire('k', 'a', 10_000)).toBe(true);
    expect(await two.leases!.acquire('k', 'b', 10_000)).toBe(false);
    await one.leases!.release('k', 'a');
    expect(await two.leases!.acquire('k', 'b', 10_000)).toBe(true);
    await one.close();
    await two.close();
  });

  it('expire after their ttl unless renewed, and only the owner renews or releases', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const store = new SqliteStore({ path: dbFile() });
    const leases = store.leases!;
    expect(await leases.acquire('k', 'a', 100)).toBe(true);
    expect(await leases.renew('k', 'b', 100)).toBe(false);
    await leases.release('k', 'b');
    expect(await leases.acquire('k', 'b', 100)).toBe(false);
    vi.setSystemTime(1_000_050);
    expect(await leases.renew('k', 'a', 100)).toBe(true);
    vi.setSystemTime(1_000_120);
    expect(await leases.acquire('k', 'b', 100)).toBe(false); // renewed until 1_000_150
    vi.setSystemTime(1_000_150);
    expect(await leases.acquire('k', 'b', 100)).toBe(true);
    expect(await leases.renew('k', 'a', 100)).toBe(false);
    await store.close();
  });

  it('report a closed database as a store error naming the operation', async () => {
    const store = new SqliteStore({ path: dbFile() });
    const leases = store.leases!;
    await store.close();
    await expect(leases.acquire('k', 'a', 100)).rejects.toMatchObject({
      code: 'STORE_ERROR',
      message: expect.stringContaining('acquire lease'),
    });
  });
});
