// The lease fence on the SQLite store (leases shared by every process opening the file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { frozenHolderCannotWrite } from './fence.js';

describe('lease fence (SQLite)', () => {
  it('refuses every write of a holder whose lease was taken by another', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-fence-'));
    const store = new SqliteStore({ path: path.join(dir, 'threads.db') });
    try {
      await frozenHolderCannotWrite(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
