import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runStoreConformance } from '../../src/testing.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
const dirs = new Map<object, string>();

runStoreConformance({
  name: 'SqliteStore',
  create: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-'));
    const store = new SqliteStore({ path: path.join(dir, 'nested', 'threads.db') });
    dirs.set(store, dir);
    return store;
  },
  destroy: async (store) => {
    await store.close();
    fs.rmSync(dirs.get(store)!, { recursive: true, force: true });
  },
});
