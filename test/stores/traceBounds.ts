/**
 * Trace bounds and retention checks shared by every trace store: a trace with a 3 MB error and
 * 3 MB attributes is stored cut to the documented 2,000 characters; retention drops the oldest
 * traces beyond the count and those older than the age limit.
 * @module
 */
import { expect } from 'vitest';
import { TRACE_TEXT_LIMIT } from '../../src/stores/traceBounds.js';
import type { StoredTrace, TraceStore } from '../../src/stores/traceStore.js';
import { storedTrace } from '../../src/testing/traceStoreConformance.js';

const HUGE = 'x'.repeat(3_000_000);

/** A trace started `agoMs` before now, with `spans` spans. */
export function recentTrace(id: string, agoMs = 0, chatId = 'c'): StoredTrace {
  const trace = storedTrace(id, { chatId });
  const startedAt = new Date(Date.now() - agoMs).toISOString();
  return {
    ...trace,
    trace: { ...trace.trace, startedAt },
    spans: trace.spans.map((span) => ({ ...span, startedAt })),
  };
}

/** Saves a trace holding 3 MB texts everywhere and checks what reads back is cut. */
export async function hugeTraceIsCut(store: TraceStore): Promise<void> {
  const base = recentTrace('huge');
  const span = base.spans[0]!;
  const trace: StoredTrace = {
    ...base,
    spans: [
      {
        ...span,
        name: HUGE,
        attributes: {
          output: HUGE,
          nested: { deeper: [HUGE, { text: HUGE }] },
          list: Array.from({ length: 500 }, (_, i) => i),
        },
        error: { message: `agent failed: ${HUGE}` },
      },
      ...base.spans.slice(1),
    ],
  };
  await store.saveTrace(trace);
  const read = (await store.getTrace('huge'))!;
  expect(JSON.stringify(read).length).toBeLessThan(30_000);
  const first = read.spans[0]!;
  expect(first.error!.message).toHaveLength(TRACE_TEXT_LIMIT + 1);
  expect(first.error!.message.startsWith('agent failed: xxx')).toBe(true);
  expect(first.error!.message.endsWith('…')).toBe(true);
  expect(first.name).toHaveLength(TRACE_TEXT_LIMIT + 1);
  expect(first.attributes.output).toHaveLength(TRACE_TEXT_LIMIT + 1);
  const nested = first.attributes.nested as { deeper: [string, { text: string }] };
  expect(nested.deeper[0]).toHaveLength(TRACE_TEXT_LIMIT + 1);
  expect(nested.deeper[1].text).toHaveLength(TRACE_TEXT_LIMIT + 1);
  expect(first.attributes.list).toHaveLength(101);
}

/** With `maxTraces: 3`, saving 5 keeps the 3 newest. */
export async function excessTracesGo(store: TraceStore): Promise<void> {
  for (let i = 0; i < 5; i++) await store.saveTrace(recentTrace(`n${i}`, (5 - i) * 1000));
  const kept = (await store.listTraces()).map((summary) => summary.traceId);
  expect(kept).toEqual(['n4', 'n3', 'n2']);
  expect(await store.getTrace('n0')).toBeNull();
}

/** With the default age limit (30 days), a 31-day-old trace goes at the next save. */
export async function oldTracesGo(store: TraceStore): Promise<void> {
  const day = 24 * 60 * 60 * 1000;
  await store.saveTrace(recentTrace('old', 31 * day));
  await store.saveTrace(recentTrace('month', 29 * day));
  await store.saveTrace(recentTrace('new', 0));
  const kept = (await store.listTraces()).map((summary) => summary.traceId);
  expect(kept).toEqual(expect.arrayContaining(['new', 'month']));
  expect(kept).not.toContain('old');
  expect(await store.getTrace('old')).toBeNull();
}
