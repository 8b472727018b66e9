// SqliteStore on databases it did not write itself: a frozen schema-version-1 database is
// migrated in place and reads back whole; damaged rows and unknown versions are reported with the
// file and the fix.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { MIGRATIONS } from '../../src/stores/sqliteSchema.js';

const fixture = path.resolve('test/fixtures/sqlite-store/v1.sql');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the version-1 fixture database in a temp dir. */
function v1Database(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-v1-'));
  dirs.push(dir);
  const file = path.join(dir, 'old.db');
  const db = new Database(file);
  db.exec(fs.readFileSync(fixture, 'utf8'));
  db.close();
  return file;
}

function userVersion(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    )
      .map((row) => row.name)
      .sort();
  } finally {
    db.close();
  }
}

describe('SqliteStore on a schema-version-1 database', () => {
  it('migrates it to the latest version on open, adding the leases table', async () => {
    const file = v1Database();
    expect(userVersion(file)).toBe(1);
    expect(tables(file)).not.toContain('leases');
    const store = new SqliteStore({ path: file });
    await store.close();
    expect(userVersion(file)).toBe(MIGRATIONS.length);
    expect(tables(file)).toContain('leases');
  });

  it('reads the old threads, items, forks and checkpoints as they were written', async () => {
    const store = new SqliteStore({ path: v1Database() });
    try {
      expect(await store.getThread('c1__A__USER')).toEqual({
        threadId: 'c1__A__USER',
        chatId: 'c1',
        version: 3,
        metadata: { title: 'old' },
        forkedFrom: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:03.000Z',
      });
      expect((await store.readItems('c1__A__USER')).map((item) => item.id)).toEqual([
        'i0',
        'i1',
        'i2',
      ]);
      const fork = await store.getThread('c1__B__USER');
      expect(fork).toMatchObject({
        version: 3,
        forkedFrom: { threadId: 'c1__A__USER', version: 2 },
      });
      expect((await store.readItems('c1__B__USER')).map((item) => item.id)).toEqual([
        'i0',
        'i1',
        'f2',
      ]);
      expect(await store.getCheckpoint('cp1')).toMatchObject({ label: 'before', chatId: 'c1' });
      expect((await store.listThreads({ chatId: 'c1' })).map((r) => r.threadId)).toEqual([
        'c1__A__USER',
        'c1__B__USER',
      ]);
    } finally {
      await store.close();
    }
  });

  it('takes appends and leases after the migration, and keeps them across a reopen', async () => {
    const file = v1Database();
    const store = new SqliteStore({ path: file });
    await store.append('c1__A__USER', [{ id: 'i3', item: { role: 'user', content: 'fourth' } }], {
      expectedVersion: 3,
    });
    expect(await store.leases!.acquire('chat:c1', 'me', 60_000)).toBe(true);
    expect(await store.leases!.acquire('chat:c1', 'other', 60_000)).toBe(false);
    await store.close();
    const again = new SqliteStore({ path: file });
    try {
      expect((await again.readItems('c1__A__USER')).map((item) => item.id)).toEqual([
        'i0',
        'i1',
        'i2',
        'i3',
      ]);
      // The fork still sees only the two items it inherited.
      expect((await again.readItems('c1__B__USER')).map((item) => item.id)).toEqual([
        'i0',
        'i1',
        'f2',
      ]);
    } finally {
      await again.close();
    }
  });

  it('migrating twice changes nothing', async () => {
    const file = v1Database();
    await new SqliteStore({ path: file }).close();
    await new SqliteStore({ path: file }).close();
    expect(userVersion(file)).toBe(MIGRATIONS.length);
  });
});

describe('SqliteStore on a newer or damaged database', () => {
  it('refuses a newer schema version, naming the file and the fix, and leaves it alone', () => {
    const file = v1Database();
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => new SqliteStore({ path: file })).toThrow(
      expect.objectContaining({
        code: 'SERIALIZATION_ERROR',
        message: expect.stringContaining(
          `SqliteStore: "${file}" has schema version 99, but this Colloquy knows versions up to ${MIGRATIONS.length}. Upgrade Colloquy`,
        ),
      }),
    );
    expect(userVersion(file)).toBe(99);
  });

  it('reports a thread whose segment is missing as a corrupt file', async () => {
    const file = v1Database();
    const db = new Database(file);
    db.prepare('DELETE FROM segments WHERE segment_id = 1').run();
    db.close();
    const store = new SqliteStore({ path: file });
    try {
      await expect(store.readItems('c1__B__USER')).rejects.toThrow(
        new RegExp(
          `segment 1 of thread "c1__B__USER" is missing in "${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"; the file is corrupt\\. Restore it from a backup\\.`,
        ),
      );
    } finally {
      await store.close();
    }
  });

  it('reports an item row that is not JSON as a corrupt file, not as a disk problem', async () => {
    const file = v1Database();
    const db = new Database(file);
    db.prepare('UPDATE items SET body = ? WHERE item_key = 67108865').run('{"id":"i1",');
    db.close();
    const store = new SqliteStore({ path: file });
    try {
      const error = (await store
        .readItems('c1__A__USER')
        .catch((caught: unknown) => caught)) as Error & {
        code?: string;
      };
      expect(error.code).toBe('SERIALIZATION_ERROR');
      expect(error.message).toContain(`on "${file}" read a row that is not valid JSON`);
      expect(error.message).toContain('the file is corrupt. Restore it from a backup.');
    } finally {
      await store.close();
    }
  });

  it('reports thread metadata that is not JSON as a corrupt file', async () => {
    const file = v1Database();
    const db = new Database(file);
    db.prepare("UPDATE threads SET metadata = 'nope' WHERE thread_id = 'c1__A__USER'").run();
    db.close();
    const store = new SqliteStore({ path: file });
    try {
      const error = (await store
        .getThread('c1__A__USER')
        .catch((caught: unknown) => caught)) as Error & {
        code?: string;
      };
      expect(error.code).toBe('SERIALIZATION_ERROR');
      expect(error.message).toContain(`on "${file}" read a row that is not valid JSON`);
      expect(error.message).toContain('the file is corrupt. Restore it from a backup.');
    } finally {
      await store.close();
    }
  });
});
