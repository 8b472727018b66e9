import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { withRetry } from '../../src/stores/retrying.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { MIGRATIONS } from '../../src/stores/sqliteSchema.js';

const dirs: string[] = [];
function dbPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-int-'));
  dirs.push(dir);
  return path.join(dir, 'threads.db');
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const items = (n: number, p = 'a') =>
  Array.from({ length: n }, (_, i) => ({
    id: `${p}${i}`,
    item: { role: 'user' as const, content: `${p}${i}` },
  }));
const count = (file: string, table: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('SqliteStore internals', () => {
  it('persists across reopen and records the schema version', async () => {
    const file = dbPath();
    const store = new SqliteStore({ path: file });
    await store.append('t', items(3), { expectedVersion: 0, chatId: 'c' });
    await store.close();
    const again = new SqliteStore({ path: file });
    expect((await again.readItems('t')).map((i) => i.id)).toEqual(['a0', 'a1', 'a2']);
    await again.close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => new SqliteStore({ path: file })).toThrow(
      new RegExp(`schema version ${MIGRATIONS.length + 1}.*Upgrade Colloquy`),
    );
  });

  it('forks and resets without copying items, and frees unreachable items on delete', async () => {
    const file = dbPath();
    const store = new SqliteStore({ path: file });
    await store.append('t', items(100), { expectedVersion: 0 });
    await store.fork('t', 'f', { upTo: 40 });
    const archive = (await store.rollback('t', 60))!;
    expect(count(file, 'items')).toBe(100);
    await store.deleteThread(archive);
    expect(count(file, 'items')).toBe(60); // items 60..99 were only visible to the archive
    await store.deleteThread('t');
    expect(count(file, 'items')).toBe(40); // f still needs 0..39
    await store.deleteThread('f');
    expect(count(file, 'items')).toBe(0);
    expect(count(file, 'segments')).toBe(0);
    await store.close();
  });

  it('maps SQLITE_BUSY to a transient StoreError that withRetry retries', async () => {
    const file = dbPath();
    const store = new SqliteStore({ path: file, busyTimeoutMs: 0 });
    await store.append('t', items(1), { expectedVersion: 0 });
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    const error = await store
      .append('t', items(1, 'b'), { expectedVersion: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).transient).toBe(true);
    expect((error as StoreError).message).toMatch(/append on ".*threads\.db" failed.*withRetry/);
    setTimeout(() => locker.exec('COMMIT'), 30);
    expect(
      await withRetry(store, { retries: 8, minTimeoutMs: 10, maxTimeoutMs: 40 }).append(
        't',
        items(1, 'b'),
        { expectedVersion: 1 },
      ),
    ).toBe(2);
    locker.close();
    await store.close();
  });
});
