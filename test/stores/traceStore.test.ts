import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteTraceStore } from '../../src/stores/sqliteTraces.js';
import {
  parseStoredTrace,
  TRACE_SCHEMA_VERSION,
  type StoredTrace,
} from '../../src/stores/traceStore.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-traces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function trace(id: string, chatId: string, startedAt: string, runId = `run_${id}`): StoredTrace {
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    trace: { traceId: id, name: 'agency t', chatId, runId, startedAt, spanCount: 1 },
    spans: [
      {
        spanId: `${id}-s`,
        traceId: id,
        parentId: null,
        kind: 'agent',
        name: 'A',
        startedAt,
        attributes: { agent: 'A', depth: 0 },
      },
    ],
  };
}

describe('SqliteTraceStore', () => {
  it('never creates a missing database with mustExist', () => {
    const file = path.join(dir, 'missing', 'x.db');
    expect(() => new SqliteTraceStore({ path: file, mustExist: true })).toThrow(
      /nothing was created/,
    );
  });

  it('keeps traces across reopen', async () => {
    const file = path.join(dir, 'reopen.db');
    const first = new SqliteTraceStore({ path: file });
    await first.saveTrace(trace('r1', 'c', new Date().toISOString()));
    await first.close();
    const again = new SqliteTraceStore({ path: file, mustExist: true });
    expect((await again.getTrace('r1'))!.trace.chatId).toBe('c');
    await again.close();
  });
});

describe('parseStoredTrace', () => {
  it('rejects an unknown schema version naming the trace', () => {
    expect(() => parseStoredTrace({ ...trace('bad', 'c', 'x'), schemaVersion: 99 })).toThrow(
      /Stored trace bad is invalid at schemaVersion/,
    );
  });
});
