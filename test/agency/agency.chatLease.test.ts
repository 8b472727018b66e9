/**
 * Two processes on one SQLite file send to the same chat at the same moment: the store lease
 * makes the second wait, so it sees the first's turn and nothing interleaves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { expectTwoProcessesSerialized } from './chatWorkers.js';

const dir = mkdtempSync(join(tmpdir(), 'colloquy-chat-lease-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one chat, two processes', () => {
  it('serializes the calls through the store lease', async () => {
    const path = join(dir, 'chat.db');
    // Create the schema once, so both children open a ready database.
    await new SqliteStore({ path }).close();
    const store = new SqliteStore({ path });
    try {
      await expectTwoProcessesSerialized(path, undefined, store);
    } finally {
      await store.close();
    }
  }, 30_000);
});
