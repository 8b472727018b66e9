/** The memory backend conformance suite on the in-process and SQLite backends. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemoryMemory } from '../../src/memory/memoryBackend.js';
import { SqliteMemory } from '../../src/memory/sqliteMemory.js';
import { runMemoryBackendConformance } from './backendConformance.js';

runMemoryBackendConformance({
  name: 'InMemoryMemory',
  create: () => Promise.resolve(new InMemoryMemory()),
});

runMemoryBackendConformance({
  name: 'SqliteMemory',
  create: () =>
    Promise.resolve(
      new SqliteMemory({ path: path.join(mkdtempSync(path.join(tmpdir(), 'memory-')), 'm.db') }),
    ),
});
