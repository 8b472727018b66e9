// The leases table of schema version 3 is one B-tree keyed by the lease key (WITHOUT ROWID), so
// taking or releasing a lease writes one page; a version-2 database is migrated with its held
// leases kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { MIGRATIONS } from '../../src/stores/sqliteSchema.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A database at schema version 2 (migrations 1 and 2 applied) holding one lease. */
function v2Database(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-v2-'));
  dirs.push(dir);
  const file = path.join(dir, 'v2.db');
  const db = new Database(file);
  db.exec(MIGRATIONS[0]!);
  db.exec(MIGRATIONS[1]!);
  db.pragma('user_version = 2');
  db.prepare('INSERT INTO leases VALUES (?, ?, ?)').run('chat:c1', 'holder', Date.now() + 60_000);
  db.close();
  return file;
}

function leasesTableSql(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'leases'").get() as {
      sql: string;
    };
    return row.sql;
  } finally {
    db.close();
  }
}

describe('SqliteStore leases table', () => {
  it('is keyed by the lease key alone (WITHOUT ROWID) after migrating a version-2 file', async () => {
    const file = v2Database();
    expect(leasesTableSql(file)).not.toMatch(/WITHOUT ROWID/i);
    const store = new SqliteStore({ path: file });
    try {
      expect(leasesTableSql(file)).toMatch(/WITHOUT ROWID/i);
      // The lease held before the migration is still held, by the same owner.
      expect(await store.leases.acquire('chat:c1', 'someone else', 10_000)).toBe(false);
      expect(await store.leases.renew('chat:c1', 'holder', 10_000)).toBe(true);
      await store.leases.release('chat:c1', 'holder');
      expect(await store.leases.acquire('chat:c1', 'someone else', 10_000)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('is created WITHOUT ROWID in a new file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-new-'));
    dirs.push(dir);
    const file = path.join(dir, 'new.db');
    await new SqliteStore({ path: file }).close();
    expect(leasesTableSql(file)).toMatch(/WITHOUT ROWID/i);
  });
});
