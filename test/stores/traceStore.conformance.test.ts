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

// The fixtures start in January 2026: the default 30-day retention would drop them.
const retention = { maxAgeMs: 0 };
runTraceStoreConformance({
  name: 'MemoryTraceStore',
  create: async () => new MemoryTraceStore({ retention }),
});
runTraceStoreConformance({
  name: 'SqliteTraceStore',
  create: async () => new SqliteTraceStore({ path: path.join(dir, `traces-${n++}.db`), retention }),
});
