import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runStoreConformance } from '../../src/testing.js';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
const dirs = new Map<object, string>();

runStoreConformance({
  name: 'JsonFileStore',
  create: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-json-'));
    const store = new JsonFileStore({ dir: path.join(dir, 'store') });
    dirs.set(store, dir);
    return store;
  },
  destroy: async (store) => {
    await store.close();
    fs.rmSync(dirs.get(store)!, { recursive: true, force: true });
  },
});
