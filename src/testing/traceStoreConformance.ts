/**
 * The conformance suite every {@link TraceStore} backend must pass (memory, SQLite, Postgres,
 * Redis, or your own), published with `colloquy/testing`. It registers vitest suites; a backend's
 * spec file calls {@link runTraceStoreConformance} once.
 *
 * @example
 * ```ts
 * import { runTraceStoreConformance } from 'colloquy/testing';
 * runTraceStoreConformance({ name: 'MyTraceStore', create: async () => new MyTraceStore() });
 * ```
 * @module
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_TRACE_LIMIT,
  TRACE_SCHEMA_VERSION,
  type SpanRecord,
  type StoredTrace,
  type TraceStore,
} from '../stores/traceStore.js';

/** How to run the trace-store conformance suite against one backend. */
export interface TraceStoreConformanceOptions {
  /** Shown as the outer `describe`, e.g. `SqliteTraceStore`. */
  name: string;
  /** Makes a fresh, empty trace store; called before every test. */
  create: () => Promise<TraceStore>;
  /** Tears down a store made by `create` after every test (default: `store.close()`). */
  destroy?: (store: TraceStore) => Promise<void>;
  /** When set, the whole suite is skipped and this reason appears in its name. */
  skip?: string;
}

/** Fields of {@link storedTrace}; every one optional. */
export interface TraceFixture {
  chatId?: string;
  runId?: string;
  /** Seconds after 2026-01-01T00:00:00Z (default 0). */
  at?: number;
  name?: string;
  spans?: number;
}

/** A finished trace `id` with `spans` nested agent → model spans, for tests of trace stores. */
export function storedTrace(id: string, fixture: TraceFixture = {}): StoredTrace {
  const startedAt = new Date(Date.UTC(2026, 0, 1) + (fixture.at ?? 0) * 1000).toISOString();
  const endedAt = new Date(Date.parse(startedAt) + 1500).toISOString();
  const spans: SpanRecord[] = [];
  for (let i = 0; i < (fixture.spans ?? 2); i++)
    spans.push({
      spanId: `${id}-s${i}`,
      traceId: id,
      parentId: i === 0 ? null : `${id}-s0`,
      kind: i === 0 ? 'agent' : 'generation',
      name: i === 0 ? 'Writer' : 'gpt-4.1-mini',
      startedAt,
      endedAt,
      durationMs: 1500,
      attributes:
        i === 0
          ? { agent: 'Writer', caller: null, depth: 0, nested: { list: [1, 'two', null] } }
          : { agent: 'Writer', model: 'gpt-4.1-mini', inputTokens: 10 * i, outputTokens: i },
      ...(i === 2 ? { error: { message: 'model failed: ünïcødé ✓' } } : {}),
    });
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    trace: {
      traceId: id,
      name: fixture.name ?? `agency ${id}`,
      ...(fixture.chatId !== undefined ? { chatId: fixture.chatId } : {}),
      ...(fixture.runId !== undefined ? { runId: fixture.runId } : {}),
      agency: 'team',
      startedAt,
      endedAt,
      durationMs: 1500,
      spanCount: spans.length,
      usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
    },
    spans,
  };
}

type Handle = () => TraceStore;

async function ids(store: TraceStore, filter?: Parameters<TraceStore['listTraces']>[0]) {
  return (await store.listTraces(filter)).map((summary) => summary.traceId);
}

function saveAndReadTests(store: Handle): void {
  describe('save and read', () => {
    it('starts empty', async () => {
      expect(await store().listTraces()).toEqual([]);
      expect(await store().getTrace('missing')).toBeNull();
    });

    it('returns a saved trace exactly as saved, spans and attributes included', async () => {
      const trace = storedTrace('t1', { chatId: 'c1', runId: 'r1', spans: 3 });
      await store().saveTrace(trace);
      expect(await store().getTrace('t1')).toEqual(trace);
      expect(await store().listTraces()).toEqual([trace.trace]);
    });

    it('replaces a trace saved again under the same id, also in the chat and run indexes', async () => {
      await store().saveTrace(storedTrace('t1', { chatId: 'old', runId: 'r-old', at: 1 }));
      await store().saveTrace(
        storedTrace('t1', { chatId: 'new', runId: 'r-new', at: 2, name: 'again' }),
      );
      expect((await store().getTrace('t1'))!.trace).toMatchObject({ name: 'again', chatId: 'new' });
      expect(await ids(store(), { chatId: 'old' })).toEqual([]);
      expect(await ids(store(), { runId: 'r-old' })).toEqual([]);
      expect(await ids(store(), { chatId: 'new' })).toEqual(['t1']);
      expect(await ids(store())).toEqual(['t1']);
    });

    it('hands out copies: changing a result changes nothing stored', async () => {
      await store().saveTrace(storedTrace('t1', { chatId: 'c1' }));
      const read = (await store().getTrace('t1'))!;
      read.spans[0]!.attributes.agent = 'changed';
      read.trace.name = 'changed';
      const [listed] = await store().listTraces();
      listed!.name = 'changed too';
      const again = (await store().getTrace('t1'))!;
      expect(again.spans[0]!.attributes.agent).toBe('Writer');
      expect(again.trace.name).toBe('agency t1');
    });

    it('keeps traces that have no chat or run id, listed only without those filters', async () => {
      await store().saveTrace(storedTrace('loose'));
      expect(await ids(store())).toEqual(['loose']);
      expect(await ids(store(), { chatId: 'c1' })).toEqual([]);
      expect(await ids(store(), { runId: 'r1' })).toEqual([]);
    });

    it('rejects a trace that does not match the saved-trace schema', async () => {
      const bad = { ...storedTrace('bad'), spans: [{ spanId: 'x' }] } as unknown as StoredTrace;
      await expect(store().saveTrace(bad)).rejects.toThrow(/Stored trace bad is invalid/);
      expect(await store().getTrace('bad')).toBeNull();
    });
  });
}

function listTests(store: Handle): void {
  describe('list', () => {
    beforeEach(async () => {
      // Saved out of order; t4 and t5 start at the same time.
      await store().saveTrace(storedTrace('t1', { chatId: 'c1', runId: 'r1', at: 1 }));
      await store().saveTrace(storedTrace('t3', { chatId: 'c2', runId: 'r2', at: 3 }));
      await store().saveTrace(storedTrace('t2', { chatId: 'c1', runId: 'r2', at: 2 }));
      await store().saveTrace(storedTrace('t5', { chatId: 'c1', runId: 'r3', at: 4 }));
      await store().saveTrace(storedTrace('t4', { chatId: 'c2', runId: 'r3', at: 4 }));
    });

    it('lists newest first; equal start times by trace id, descending', async () => {
      expect(await ids(store())).toEqual(['t5', 't4', 't3', 't2', 't1']);
    });

    it('filters by chat id, by run id, and by both', async () => {
      expect(await ids(store(), { chatId: 'c1' })).toEqual(['t5', 't2', 't1']);
      expect(await ids(store(), { runId: 'r2' })).toEqual(['t3', 't2']);
      expect(await ids(store(), { chatId: 'c1', runId: 'r2' })).toEqual(['t2']);
      expect(await ids(store(), { chatId: 'c9' })).toEqual([]);
    });

    it('limits the newest first, clamping the limit to at least one', async () => {
      expect(await ids(store(), { limit: 2 })).toEqual(['t5', 't4']);
      expect(await ids(store(), { chatId: 'c1', limit: 1 })).toEqual(['t5']);
      expect(await ids(store(), { limit: 0 })).toEqual(['t5']);
      expect(await ids(store(), { limit: 2.7 })).toEqual(['t5', 't4']);
    });
  });

  it(`lists ${DEFAULT_TRACE_LIMIT} traces by default`, async () => {
    for (let i = 0; i < DEFAULT_TRACE_LIMIT + 3; i++)
      await store().saveTrace(storedTrace(`t${String(i).padStart(3, '0')}`, { at: i, spans: 1 }));
    const listed = await ids(store());
    expect(listed).toHaveLength(DEFAULT_TRACE_LIMIT);
    expect(listed[0]).toBe(`t${String(DEFAULT_TRACE_LIMIT + 2).padStart(3, '0')}`);
    expect(await ids(store(), { limit: DEFAULT_TRACE_LIMIT + 10 })).toHaveLength(
      DEFAULT_TRACE_LIMIT + 3,
    );
  });
}

function deleteTests(store: Handle): void {
  describe('delete', () => {
    it("deletes a chat's traces only, returning how many", async () => {
      await store().saveTrace(storedTrace('t1', { chatId: 'c1', runId: 'r1', at: 1 }));
      await store().saveTrace(storedTrace('t2', { chatId: 'c1', runId: 'r2', at: 2 }));
      await store().saveTrace(storedTrace('t3', { chatId: 'c2', runId: 'r2', at: 3 }));
      expect(await store().deleteTraces({ chatId: 'c1' })).toBe(2);
      expect(await store().getTrace('t1')).toBeNull();
      expect(await ids(store())).toEqual(['t3']);
      expect(await ids(store(), { runId: 'r2' })).toEqual(['t3']);
      expect(await ids(store(), { chatId: 'c1' })).toEqual([]);
      expect(await store().deleteTraces({ chatId: 'c1' })).toBe(0);
      expect(await store().deleteTraces({ chatId: 'never' })).toBe(0);
    });

    it('lets a chat record new traces after its traces were deleted', async () => {
      await store().saveTrace(storedTrace('t1', { chatId: 'c1' }));
      await store().deleteTraces({ chatId: 'c1' });
      await store().saveTrace(storedTrace('t1', { chatId: 'c1', at: 5 }));
      expect(await ids(store(), { chatId: 'c1' })).toEqual(['t1']);
    });
  });
}

/**
 * Registers the trace-store conformance suite (save/read, list, delete) for a backend.
 *
 * @example
 * ```ts
 * runTraceStoreConformance({
 *   name: 'RedisTraceStore',
 *   create: async () => new RedisStore({ url, keyPrefix: 'test:' }).traces,
 *   skip: url ? undefined : 'no Redis',
 * });
 * ```
 */
export function runTraceStoreConformance(opts: TraceStoreConformanceOptions): void {
  const title = opts.skip
    ? `${opts.name} trace conformance (skipped: ${opts.skip})`
    : `${opts.name} trace conformance`;
  describe.skipIf(Boolean(opts.skip))(title, () => {
    let current: TraceStore | undefined;
    beforeEach(async () => {
      current = await opts.create();
    });
    afterEach(async () => {
      const store = current;
      current = undefined;
      if (store) await (opts.destroy ? opts.destroy(store) : store.close());
    });
    const store: Handle = () => {
      if (!current)
        throw new Error(`${opts.name}: create() did not produce a store before the test ran.`);
      return current;
    };
    saveAndReadTests(store);
    listTests(store);
    deleteTests(store);
  });
}
