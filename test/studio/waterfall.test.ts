import { describe, expect, it } from 'vitest';
import { formatMs, layoutWaterfall, MIN_WIDTH_PCT } from '../../studio/src/lib/waterfall.js';
import type { Span } from '../../studio/src/lib/types.js';
import { agencySpans, openSpans } from './fixtures/spans.js';

describe('layoutWaterfall', () => {
  it('orders spans as a call tree: children after their parent, by start time', () => {
    const { rows, totalMs } = layoutWaterfall(agencySpans);
    expect(totalMs).toBe(1000);
    expect(rows.map((row) => [row.span.spanId, row.depth])).toEqual([
      ['coord', 0],
      ['gen1', 1],
      ['send', 1],
      ['res', 2],
      ['resgen', 3],
      ['gen2', 1],
    ]);
  });

  it('places bars in % of the trace and reports durations and tokens', () => {
    const rows = new Map(layoutWaterfall(agencySpans).rows.map((row) => [row.span.spanId, row]));
    expect(rows.get('coord')).toMatchObject({ leftPct: 0, widthPct: 100, durationMs: 1000 });
    expect(rows.get('send')).toMatchObject({ offsetMs: 200, leftPct: 20, widthPct: 60 });
    expect(rows.get('res')).toMatchObject({ leftPct: 25, widthPct: 50, durationMs: 500 });
    expect(rows.get('gen2')!.tokens).toEqual({ input: 30, output: 5 });
    expect(rows.get('resgen')!.tokens).toEqual({ input: 8, output: 0 });
    expect(rows.get('coord')!.tokens).toBeUndefined();
  });

  it('runs an unfinished span to now and marks it open', () => {
    const start = Date.parse(openSpans[0]!.startedAt);
    const { rows, totalMs } = layoutWaterfall(openSpans, start + 2000);
    expect(totalMs).toBe(2000);
    expect(rows[0]).toMatchObject({ open: true, durationMs: 2000, widthPct: 100 });
    expect(rows[1]).toMatchObject({ open: false, leftPct: 5, widthPct: 10 });
  });

  it('keeps instant spans visible, draws orphans as roots and survives cycles', () => {
    const instant: Span = {
      ...agencySpans[3]!,
      spanId: 'zero',
      endedAt: agencySpans[3]!.startedAt,
    };
    const orphan: Span = { ...agencySpans[4]!, spanId: 'orphan', parentId: 'missing' };
    const a: Span = { ...agencySpans[1]!, spanId: 'a', parentId: 'b' };
    const b: Span = { ...agencySpans[1]!, spanId: 'b', parentId: 'a' };
    const { rows } = layoutWaterfall([...agencySpans, instant, orphan, a, b]);
    const byId = new Map(rows.map((row) => [row.span.spanId, row]));
    expect(byId.get('zero')!.widthPct).toBe(MIN_WIDTH_PCT);
    expect(byId.get('orphan')!.depth).toBe(0);
    expect(rows.filter((row) => row.span.spanId === 'a' || row.span.spanId === 'b')).toHaveLength(
      2,
    );
    expect(rows).toHaveLength(agencySpans.length + 4);
  });

  it('lays out nothing for no spans', () => {
    expect(layoutWaterfall([])).toEqual({ rows: [], startMs: 0, totalMs: 0 });
  });
});

describe('formatMs', () => {
  it('prints ms below a second and seconds above', () => {
    expect(formatMs(340.4)).toBe('340 ms');
    expect(formatMs(1234)).toBe('1.2 s');
    expect(formatMs(12_345)).toBe('12 s');
  });
});
