/** Evals: the eval runs of the server's results folder, and a run's cases with scores, reasons and a link to each case's traces. */
import { Empty, Failure, Loading } from '../components/States';
import { ApiError } from '../lib/api';
import type { EvalResults, EvalRunSummary } from '../lib/types';
import { useApi } from '../lib/useApi';
import { formatMs } from '../lib/waterfall';

const percent = (value: number) => `${Math.round(value * 100)}%`;

function RunDetail({ runId, traceHref }: { runId: string; traceHref: (chatId: string) => string }) {
  const detail = useApi<{ results: EvalResults }>(`/evals/${encodeURIComponent(runId)}`);
  if (detail.error) return <Failure error={detail.error} retry={detail.reload} />;
  if (!detail.data) return <Loading what="eval results" />;
  const results = detail.data.results;
  return (
    <div data-testid="eval-run">
      <h1>
        {results.dataset} on {results.target}
      </h1>
      <p className="muted small">
        <code>{results.runId}</code> · {new Date(results.startedAt).toLocaleString()} ·{' '}
        {formatMs(results.durationMs)} · mean {percent(results.mean)} ·{' '}
        {results.passed ? 'passed' : `failed: ${results.failures.join(', ')}`}
      </p>
      <table className="table" data-testid="eval-cases">
        <thead>
          <tr>
            <th>Case</th>
            <th>Result</th>
            <th>Scores and reasons</th>
            <th>Traces</th>
          </tr>
        </thead>
        <tbody>
          {results.cases.map((item) => {
            const chats = item.runs.flatMap((run) => (run.chatId ? [run.chatId] : []));
            return (
              <tr key={item.id} data-testid="eval-case" className={item.passed ? '' : 'error-text'}>
                <td>
                  <strong>{item.id}</strong>
                  <div className="muted small">
                    {Array.isArray(item.input) ? item.input.join(' ⏎ ') : item.input}
                  </div>
                </td>
                <td>
                  {item.passed ? 'pass' : 'fail'} · {percent(item.mean)}
                </td>
                <td>
                  <ul className="plain">
                    {item.scores.map((score) => (
                      <li key={score.scorer} data-testid="eval-score">
                        <strong>{score.scorer}</strong> {percent(score.mean)}
                        {score.threshold !== undefined
                          ? ` (needs ${percent(score.threshold)})`
                          : ''}
                        {item.runs.length > 1 ? ` ± ${percent(score.stdev)}` : ''} — {score.reason}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  {chats.length === 0 ? (
                    <span className="muted small" title="The target kept no traces for this case">
                      —
                    </span>
                  ) : (
                    chats.map((chatId, index) => (
                      <a key={chatId} href={traceHref(chatId)} data-testid="eval-trace">
                        {chats.length > 1 ? `Repeat ${index + 1}` : 'Trace'}
                      </a>
                    ))
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function EvalsView({
  runId,
  onSelect,
  traceHref,
}: {
  runId: string | undefined;
  onSelect: (runId: string) => void;
  traceHref: (chatId: string) => string;
}) {
  const list = useApi<{
    runs: EvalRunSummary[];
    unreadable: Array<{ runId: string; error: string }>;
  }>('/evals');
  if (list.error instanceof ApiError && list.error.status === 404)
    return (
      <Empty title="This server shows no evals.">
        It has no <code>/evals</code> route: upgrade Colloquy.
      </Empty>
    );
  if (list.error) return <Failure error={list.error} retry={list.reload} />;
  if (!list.data) return <Loading what="eval runs" />;
  const { runs, unreadable } = list.data;
  const current = runId ?? runs[0]?.runId;
  return (
    <div className="split">
      <aside className="split-side narrow">
        <h1>Evals</h1>
        {runs.length === 0 ? (
          <Empty title="No eval runs yet.">
            Run <code>colloquy eval run</code>; its results are kept in{' '}
            <code>.colloquy/evals/</code>.
          </Empty>
        ) : (
          <ul className="plain list" data-testid="eval-runs">
            {runs.map((run) => (
              <li key={run.runId}>
                <button
                  type="button"
                  aria-pressed={run.runId === current}
                  onClick={() => onSelect(run.runId)}
                >
                  <strong>{run.dataset}</strong>
                  <span className="muted small">
                    {run.target} · {new Date(run.startedAt).toLocaleString()} · mean{' '}
                    {percent(run.mean)} · {run.passedCases}/{run.cases} passed
                    {run.passed ? '' : ' · failed'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {unreadable.length > 0 ? (
          <p className="muted small">
            Unreadable: {unreadable.map((entry) => `${entry.runId} (${entry.error})`).join('; ')}
          </p>
        ) : null}
      </aside>
      <div className="split-main">
        {current ? <RunDetail key={current} runId={current} traceHref={traceHref} /> : null}
      </div>
    </div>
  );
}
