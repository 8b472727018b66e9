/**
 * Bounds of stored traces, the same in every trace store: every text in a span (its name, each
 * attribute, at any depth, and its error) is cut at {@link TRACE_TEXT_LIMIT} characters, lists at
 * {@link TRACE_LIST_LIMIT} entries, nesting at {@link TRACE_DEPTH_LIMIT} levels, and a trace at
 * {@link TRACE_SPAN_LIMIT} spans; and retention ({@link TraceRetention}) drops traces by age and
 * count, on by default. A 3 MB error thus stores about 2 KB.
 * @module
 */
import { ConfigError } from '../errors.js';
import type { SpanRecord, StoredTrace } from './traceStore.js';

/** Longest text kept in a span, in characters (longer ones end with `…`). */
export const TRACE_TEXT_LIMIT = 2_000;
/** Most entries kept of a list attribute (the rest are summarised by one string entry). */
export const TRACE_LIST_LIMIT = 100;
/** Deepest nesting kept in an attribute; deeper values become their (cut) JSON text. */
export const TRACE_DEPTH_LIMIT = 5;
/** Most spans kept of one trace (the first ones; the summary says how many there were). */
export const TRACE_SPAN_LIMIT = 5_000;

/** Cuts `text` to {@link TRACE_TEXT_LIMIT} characters (without splitting a surrogate pair). */
export function cutText(text: string, max = TRACE_TEXT_LIMIT): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A value with every text cut, lists shortened and deep nesting flattened to text. */
export function boundValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= TRACE_DEPTH_LIMIT) return cutText(JSON.stringify(value) ?? '');
  if (Array.isArray(value)) {
    const kept = value.slice(0, TRACE_LIST_LIMIT).map((entry) => boundValue(entry, depth + 1));
    if (value.length > TRACE_LIST_LIMIT)
      kept.push(`… ${value.length - TRACE_LIST_LIMIT} more entries not kept`);
    return kept;
  }
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value))
    out[cutText(key)] = boundValue(entry, depth + 1);
  return out;
}

function boundSpan(span: SpanRecord): SpanRecord {
  return {
    ...span,
    name: cutText(span.name),
    attributes: boundValue(span.attributes) as Record<string, unknown>,
    ...(span.error ? { error: { message: cutText(span.error.message) } } : {}),
  };
}

/** A trace within the bounds (a new object; the input is not changed). */
export function boundTrace(stored: StoredTrace): StoredTrace {
  const spans = stored.spans.slice(0, TRACE_SPAN_LIMIT).map(boundSpan);
  return { ...stored, trace: { ...stored.trace, name: cutText(stored.trace.name) }, spans };
}

/** How long a trace store keeps traces. Every field is optional. */
export interface TraceRetention {
  /** Drop traces that started more than this many ms ago (default 30 days; 0: never). */
  maxAgeMs?: number;
  /** Keep at most this many traces, dropping the oldest (default 10,000; 0: no cap). */
  maxTraces?: number;
}

/** The default {@link TraceRetention}: 30 days and 10,000 traces. */
export const DEFAULT_TRACE_RETENTION: Required<TraceRetention> = {
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  maxTraces: 10_000,
};

/** Validates retention options (for the store named `store`) and fills the defaults. */
export function resolveRetention(
  store: string,
  options: TraceRetention | undefined,
): Required<TraceRetention> {
  const resolved = { ...DEFAULT_TRACE_RETENTION, ...options };
  for (const name of ['maxAgeMs', 'maxTraces'] as const) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < 0)
      throw new ConfigError(
        `${store}: retention.${name} is ${String(options?.[name])}; use a whole number ≥ 0 (0 turns it off).`,
      );
  }
  return resolved;
}

/** The oldest start time kept under `retention` now (ISO), or undefined when age is unbounded. */
export function retentionCutoff(retention: Required<TraceRetention>, now = Date.now()) {
  return retention.maxAgeMs === 0 ? undefined : new Date(now - retention.maxAgeMs).toISOString();
}
