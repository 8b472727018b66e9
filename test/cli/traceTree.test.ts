import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  renderTraceTree,
  spanLabel,
  summaryLine,
} from '../../src/cli/traceTree.js';
import type { SpanRecord, StoredTrace } from '../../src/stores/traceStore.js';

function span(
  id: string,
  parent: string | null,
  kind: SpanRecord['kind'],
  name: string,
  attributes: Record<string, unknown> = {},
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  return {
    spanId: id,
    traceId: 't',
    parentId: parent,
    kind,
    name,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 12,
    attributes,
    ...extra,
  };
}

const stored: StoredTrace = {
  schemaVersion: 1,
  trace: {
    traceId: 't',
    name: 'agency a',
    chatId: 'c',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1500,
    spanCount: 5,
    usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
  },
  spans: [
    span('1', null, 'agent', 'Boss', {
      agent: 'Boss',
      caller: null,
      inputTokens: 10,
      outputTokens: 5,
    }),
    span('2', '1', 'generation', 'gpt', {
      model: 'gpt',
      inputTokens: 10,
      outputTokens: 5,
      attempt: 2,
      fallback: true,
    }),
    span('3', '1', 'send_message', 'send_message', { recipient: 'Worker' }),
    span(
      '4',
      '3',
      'agent',
      'Worker',
      { agent: 'Worker', caller: 'Boss' },
      { error: { message: 'boom' } },
    ),
    span('5', '4', 'function', 'search', { tool: 'search' }),
  ],
};

describe('renderTraceTree', () => {
  it('prints one line per span, nested, with durations, tokens and errors', () => {
    expect(renderTraceTree(stored)).toEqual([
      'agency a  t  1.5 s  30 tokens (20 in / 10 out)',
      '└─ Boss  12 ms  10 in / 5 out',
      '   ├─ model gpt (attempt 2, fallback)  12 ms  10 in / 5 out',
      '   └─ send_message → Worker  12 ms',
      '      └─ Worker (asked by Boss)  12 ms  ✗ boom',
      '         └─ tool search  12 ms',
    ]);
  });

  it('labels and formats', () => {
    expect(formatDuration(undefined)).toBe('…');
    expect(formatDuration(999)).toBe('999 ms');
    expect(spanLabel(span('x', null, 'ensemble_step', 'step 1'))).toBe('ensemble_step step 1');
    expect(summaryLine(stored.trace)).toBe(
      't  2026-01-01 00:00:00  agency a  1.5 s  5 spans  30 tokens  chat=c',
    );
  });
});
