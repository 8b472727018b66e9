// The trace-store conformance suite against the in-process backends (memory, SQLite); Redis and
// Postgres run it in redisTraces.int.test.ts and postgresTraces.int.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { SqliteTraceStore } from '../../src/stores/sqliteTraces.js';
import { MemoryTraceStore } from '../../src/stores/traceStore.js';
import { runTraceStoreConformance } from '../../src/testing/traceStoreConformance.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-trace-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

runTraceStoreConformance({ name: 'MemoryTraceStore', create: async () => new MemoryTraceStore() });
runTraceStoreConformance({
  name: 'SqliteTraceStore',
  create: async () => new SqliteTraceStore({ path: path.join(dir, `traces-${n++}.db`) }),
});
