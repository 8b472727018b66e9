/** Traces: a chat's (or run's) traces, and one trace's spans as a waterfall with durations and tokens. */
import { useState } from 'react';
import { SpanDetail } from '../components/SpanDetail';
import { Empty, Failure, Loading } from '../components/States';
import { ApiError } from '../lib/api';
import type { Span, TraceSummary } from '../lib/types';
import { useApi } from '../lib/useApi';
import { formatMs, layoutWaterfall } from '../lib/waterfall';

function Waterfall({ traceId }: { traceId: string }) {
  const [opened, setOpened] = useState<string | null>(null);
  const detail = useApi<{ trace: TraceSummary; spans: Span[] }>(
    `/traces/${encodeURIComponent(traceId)}`,
  );
  if (detail.error) return <Failure error={detail.error} retry={detail.reload} />;
  if (!detail.data) return <Loading what="spans" />;
  const { rows, totalMs } = layoutWaterfall(detail.data.spans);
  const open = rows.find((row) => row.span.spanId === opened)?.span;
  if (rows.length === 0) return <Empty title="This trace has no spans." />;
  return (
    <>
      <div
        className="waterfall"
        role="table"
        aria-label={`Spans of ${detail.data.trace.name}`}
        data-testid="waterfall"
      >
        <div className="wf-row wf-head" role="row">
          <span role="columnheader">Span</span>
          <span role="columnheader">Timeline ({formatMs(totalMs)})</span>
          <span role="columnheader">Duration</span>
          <span role="columnheader">Tokens in / out</span>
        </div>
        {rows.map((row) => (
          <div
            key={row.span.spanId}
            className={`wf-row${row.span.error ? ' wf-error' : ''}`}
            role="row"
            data-kind={row.span.kind}
          >
            <span
              role="cell"
              className="wf-name"
              style={{ paddingLeft: `${row.depth * 14}px` }}
              title={row.span.error?.message}
            >
              <button
                type="button"
                className="linklike"
                aria-expanded={row.span.spanId === opened}
                onClick={() => setOpened(row.span.spanId === opened ? null : row.span.spanId)}
                data-testid="span-open"
              >
                <span className={`kind kind-${row.span.kind}`}>{row.span.kind}</span>{' '}
                {row.span.name}
              </button>
            </span>
            <span role="cell" className="wf-track">
              <span
                className={`wf-bar kind-${row.span.kind}${row.open ? ' wf-open' : ''}`}
                style={{ left: `${row.leftPct}%`, width: `${row.widthPct}%` }}
              />
            </span>
            <span role="cell" className="wf-num">
              {formatMs(row.durationMs)}
            </span>
            <span role="cell" className="wf-num">
              {row.tokens ? `${row.tokens.input} / ${row.tokens.output}` : ''}
            </span>
          </div>
        ))}
      </div>
      {open ? <SpanDetail span={open} onClose={() => setOpened(null)} /> : null}
    </>
  );
}

export function TracesView({
  chatId,
  runId,
}: {
  chatId: string | undefined;
  runId?: string | undefined;
}) {
  const query = runId
    ? `runId=${encodeURIComponent(runId)}`
    : chatId
      ? `chatId=${encodeURIComponent(chatId)}`
      : '';
  const list = useApi<{ traces: Array<TraceSummary & { title?: string }> }>(
    `/traces?${query}${query ? '&' : ''}limit=50`,
  );
  const [selected, setSelected] = useState<string | null>(null);
  if (list.error instanceof ApiError && list.error.status === 404)
    return (
      <Empty title="This server keeps no traces.">
        Traces come from the trace store (on by default in versions with tracing); this server has
        no <code>/traces</code> route. Upgrade Colloquy, or turn tracing on, then run a message.
      </Empty>
    );
  if (list.error) return <Failure error={list.error} retry={list.reload} />;
  if (!list.data) return <Loading what="traces" />;
  const traces = list.data.traces;
  const current = selected ?? traces[0]?.traceId ?? null;
  return (
    <div className="split">
      <aside className="split-side narrow">
        <h1>Traces</h1>
        <p className="muted small">
          {chatId ? (
            <>
              for chat <code>{chatId}</code>
            </>
          ) : (
            'latest, all chats'
          )}
        </p>
        {traces.length === 0 ? (
          <Empty title="No traces yet.">Send a message in Chat; each call is one trace.</Empty>
        ) : (
          <ul className="plain list">
            {traces.map((trace) => (
              <li key={trace.traceId}>
                <button
                  type="button"
                  aria-pressed={trace.traceId === current}
                  onClick={() => setSelected(trace.traceId)}
                  title={trace.name}
                  data-testid="trace-item"
                >
                  <strong className="trace-title">{trace.title || trace.name}</strong>
                  <span className="muted small">
                    {new Date(trace.startedAt).toLocaleTimeString()} · {trace.spanCount} spans
                    {trace.durationMs !== undefined ? ` · ${formatMs(trace.durationMs)}` : ''}
                    {trace.usage ? ` · ${trace.usage.totalTokens} tokens` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <div className="split-main">{current ? <Waterfall traceId={current} /> : null}</div>
    </div>
  );
}
