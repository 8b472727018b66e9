/**
 * Lays out a trace's spans as a waterfall: rows in call-tree order (children after their parent,
 * by start time), each with its depth and its bar's offset and width as percentages of the trace.
 * Pure, for the traces view and its tests.
 * @module
 */
import type { Span } from './types.js';

/** One row of the waterfall. */
export interface WaterfallRow {
  span: Span;
  depth: number;
  /** Milliseconds from the trace's start to the span's start. */
  offsetMs: number;
  durationMs: number;
  /** The bar's left edge and width, in % of the trace's duration. */
  leftPct: number;
  widthPct: number;
  /** Tokens the span reports (model calls), if any. */
  tokens?: { input: number; output: number };
  /** Whether the span had not ended when the trace was read. */
  open: boolean;
}

/** A laid-out trace. */
export interface Waterfall {
  rows: WaterfallRow[];
  startMs: number;
  totalMs: number;
}

/** The narrowest bar drawn, in %, so that instant spans stay visible. */
export const MIN_WIDTH_PCT = 0.5;

function time(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function tokensOf(span: Span): WaterfallRow['tokens'] {
  const input = span.attributes.inputTokens;
  const output = span.attributes.outputTokens;
  if (typeof input !== 'number' && typeof output !== 'number') return undefined;
  return {
    input: typeof input === 'number' ? input : 0,
    output: typeof output === 'number' ? output : 0,
  };
}

/**
 * Lays out `spans`. A span whose parent is not among them is drawn as a root; an unfinished span
 * runs to `now` (default: the latest end or start seen).
 */
export function layoutWaterfall(spans: readonly Span[], now?: number): Waterfall {
  if (spans.length === 0) return { rows: [], startMs: 0, totalMs: 0 };
  const start = (span: Span) => time(span.startedAt) ?? 0;
  const endOf = (span: Span): number | undefined => {
    const ended = time(span.endedAt);
    if (ended !== undefined) return ended;
    return span.durationMs !== undefined ? start(span) + span.durationMs : undefined;
  };
  const startMs = Math.min(...spans.map(start));
  const latest = Math.max(...spans.map((span) => endOf(span) ?? start(span)));
  const end = Math.max(latest, now ?? latest);
  const totalMs = Math.max(end - startMs, 1);

  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | null, Span[]>();
  for (const span of spans) {
    const parent = span.parentId !== null && ids.has(span.parentId) ? span.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  for (const list of children.values()) list.sort((a, b) => start(a) - start(b));

  const rows: WaterfallRow[] = [];
  const seen = new Set<string>();
  const visit = (span: Span, depth: number) => {
    if (seen.has(span.spanId)) return; // a cycle in bad data: draw each span once
    seen.add(span.spanId);
    const offsetMs = start(span) - startMs;
    const ended = endOf(span);
    const durationMs = (ended ?? end) - start(span);
    const leftPct = (offsetMs / totalMs) * 100;
    const widthPct = Math.min(
      Math.max((durationMs / totalMs) * 100, MIN_WIDTH_PCT),
      100 - leftPct || MIN_WIDTH_PCT,
    );
    const tokens = tokensOf(span);
    rows.push({
      span,
      depth,
      offsetMs,
      durationMs,
      leftPct,
      widthPct,
      open: ended === undefined,
      ...(tokens ? { tokens } : {}),
    });
    for (const child of children.get(span.spanId) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  // Spans only reachable through a cycle have no root: draw them at the top level.
  for (const span of spans) visit(span, 0);
  return { rows, startMs, totalMs };
}

/** `1.2 s`, `340 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
