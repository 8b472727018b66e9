/**
 * A stored trace as text: one line per span, indented as the calls nest, with durations and
 * tokens. Used by `colloquy traces show` and the `/trace` command of `colloquy chat`.
 * @module
 */
import type { SpanRecord, StoredTrace, TraceSummary } from '../stores/traceStore.js';

/** `1.2 s` or `35 ms`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '…';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function tokens(attributes: Record<string, unknown>): string {
  const input = attributes.inputTokens;
  const output = attributes.outputTokens;
  if (typeof input !== 'number' && typeof output !== 'number') return '';
  return `  ${Number(input ?? 0)} in / ${Number(output ?? 0)} out`;
}

/** The label of one span: what it is and who is involved. */
export function spanLabel(span: SpanRecord): string {
  const a = span.attributes;
  switch (span.kind) {
    case 'agent':
      return `${span.name}${a.caller ? ` (asked by ${String(a.caller)})` : ''}`;
    case 'generation': {
      const extra = [
        typeof a.attempt === 'number' && a.attempt > 1 ? `attempt ${a.attempt}` : '',
        a.fallback === true ? 'fallback' : '',
      ].filter(Boolean);
      return `model ${String(a.model ?? span.name)}${extra.length ? ` (${extra.join(', ')})` : ''}`;
    }
    case 'send_message':
      return `send_message → ${String(a.recipient ?? '?')}`;
    case 'function':
      return `tool ${span.name}`;
    default:
      return `${span.kind} ${span.name}`;
  }
}

/** One line for a trace summary. */
export function summaryLine(trace: TraceSummary): string {
  const usage = trace.usage ? `  ${trace.usage.totalTokens} tokens` : '';
  return (
    `${trace.traceId}  ${trace.startedAt.replace('T', ' ').slice(0, 19)}  ${trace.name}` +
    `  ${formatDuration(trace.durationMs)}  ${trace.spanCount} spans${usage}` +
    `${trace.chatId ? `  chat=${trace.chatId}` : ''}`
  );
}

/**
 * The span tree of a trace, one line per span.
 *
 * @example
 * ```ts
 * console.log(renderTraceTree(await traces.getTrace(id)).join('\n'));
 * ```
 */
export function renderTraceTree(stored: StoredTrace): string[] {
  const { trace, spans } = stored;
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | null, SpanRecord[]>();
  for (const span of spans) {
    const parent = span.parentId && ids.has(span.parentId) ? span.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  const usage = trace.usage
    ? `  ${trace.usage.totalTokens} tokens (${trace.usage.inputTokens} in / ${trace.usage.outputTokens} out)`
    : '';
  const lines = [`${trace.name}  ${trace.traceId}  ${formatDuration(trace.durationMs)}${usage}`];
  const visit = (span: SpanRecord, prefix: string, last: boolean) => {
    const error = span.error ? `  ✗ ${span.error.message}` : '';
    lines.push(
      `${prefix}${last ? '└─ ' : '├─ '}${spanLabel(span)}  ${formatDuration(span.durationMs)}${tokens(span.attributes)}${error}`,
    );
    const kids = children.get(span.spanId) ?? [];
    kids.forEach((child, index) =>
      visit(child, `${prefix}${last ? '   ' : '│  '}`, index === kids.length - 1),
    );
  };
  const roots = children.get(null) ?? [];
  roots.forEach((root, index) => visit(root, '', index === roots.length - 1));
  return lines;
}
