/**
 * Opens the trace store of a `--store` spec for reading. A SQLite file that does not exist is an
 * error: reading never creates a database or its folder.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { StoreError } from '../errors.js';
import { parseStoreSpec } from '../stores/storeSpec.js';
import type { TraceStore } from '../stores/traceStore.js';

/** The SQLite file a spec names (see `parseStoreSpec`), or undefined for other backends. */
export function sqlitePathOf(spec: string | undefined, env = process.env): string | undefined {
  const parsed = parseStoreSpec(spec, env);
  return parsed.kind === 'sqlite' ? parsed.path : undefined;
}

/** Fails with the path and the fix when a read-only command names a missing SQLite file. */
export function assertSqliteExists(spec: string | undefined, env = process.env): void {
  const file = sqlitePathOf(spec, env);
  if (file === undefined || file === ':memory:' || existsSync(file)) return;
  throw new StoreError(
    `There is no Colloquy database at ${path.resolve(file)}${spec ? ` (from --store ${spec})` : ''}. ` +
      'Check the path (or --store / $COLLOQUY_DB); nothing was created.',
  );
}

/** The trace store of a spec, for reading; close it when done. */
export async function openTraceStoreForReading(spec: string | undefined): Promise<TraceStore> {
  assertSqliteExists(spec);
  const file = sqlitePathOf(spec);
  if (file !== undefined && file !== ':memory:') {
    const { SqliteTraceStore } = await import('../stores/sqliteTraces.js');
    return new SqliteTraceStore({ path: file, mustExist: true });
  }
  const { openStore } = await import('../stores/openStore.js');
  const { traceStoreFor } = await import('../stores/traceStores.js');
  const threads = await openStore(spec);
  const traces = await traceStoreFor(threads);
  return {
    kind: traces.kind,
    saveTrace: (trace) => traces.saveTrace(trace),
    listTraces: (filter) => traces.listTraces(filter),
    getTrace: (id) => traces.getTrace(id),
    deleteTraces: (filter) => traces.deleteTraces(filter),
    close: async () => {
      await traces.close();
      await threads.close();
    },
  };
}
