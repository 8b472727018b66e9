/**
 * Ensembles: pick one, start a run with an input and watch it live (the DAG with the agents
 * running now highlighted, executions per agent, the turn count), then its history and
 * completion reason; resume an interrupted run.
 */
import { useEffect, useRef, useState } from 'react';
import { Graph, type GraphEdge, type GraphNode } from '../components/Graph';
import { Empty, Failure, Loading } from '../components/States';
import { api, describeError, streamEvents } from '../lib/api';
import { applyRunEvent, emptyRun, type EnsembleRunView } from '../lib/ensembleRun';
import type { EnsembleDetail, EnsembleEvent, RunSummary, SavedRun } from '../lib/types';
import { useApi } from '../lib/useApi';

function RunPanel({ detail, run }: { detail: EnsembleDetail; run: EnsembleRunView }) {
  const nodes: GraphNode[] = detail.agents.map((agent) => ({
    id: agent.name,
    label: agent.name,
    sublabel:
      agent.kind === 'llm'
        ? (agent.modelProfile ?? 'llm')
        : agent.kind === 'dispatch'
          ? `dispatch ${agent.dispatch ?? ''}`.trim()
          : agent.kind,
    kind: agent.kind,
    active: run.running.includes(agent.name),
    badge: run.counts[agent.name] ? `×${run.counts[agent.name]}` : undefined,
  }));
  const edges: GraphEdge[] = detail.agents.flatMap((agent) =>
    agent.dependsOn.map((dep) => ({
      source: dep.agent,
      target: agent.name,
      ...(dep.condition ? { label: 'if' } : {}),
    })),
  );
  return (
    <>
      <Graph nodes={nodes} edges={edges} label={`Agents of ensemble ${detail.name}`} />
      <div className="stats" data-testid="run-stats">
        <span>
          Turns: <strong data-testid="turn-count">{run.turnCount}</strong>
        </span>
        <span>
          Running: <strong>{run.running.join(', ') || '—'}</strong>
        </span>
        {run.result ? (
          <span>
            Completion:{' '}
            <strong data-testid="completion-reason">{run.result.completion_reason}</strong>
          </span>
        ) : null}
      </div>
      {run.error ? (
        <div className="error-text" role="alert">
          {run.error.message}
        </div>
      ) : null}
      {run.history.length > 0 ? (
        <ol className="history" aria-label="Conversation history">
          {run.history.map((turn) => (
            <li key={turn.turn_number}>
              <div className="item-head">
                <strong>
                  #{turn.turn_number} {turn.agent_name}
                </strong>
                <span className="muted small">{turn.execution_time.toFixed(2)} s</span>
              </div>
              <pre className="pre wrap small">{JSON.stringify(turn.output_data, null, 2)}</pre>
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}

export function EnsemblesView({
  name,
  onSelect,
}: {
  name: string | undefined;
  onSelect: (name: string) => void;
}) {
  const list = useApi<{ ensembles: Array<{ name: string }> }>('/ensembles');
  const detail = useApi<EnsembleDetail>(name ? `/ensembles/${encodeURIComponent(name)}` : null);
  const saved = useApi<{ runs: SavedRun[] }>(
    detail.data ? `/runs?ensemble=${encodeURIComponent(detail.data.ensembleName)}` : null,
  );
  const [input, setInput] = useState('');
  const [run, setRun] = useState<EnsembleRunView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const follow = useRef<AbortController | null>(null);

  useEffect(() => {
    setInput(detail.data?.defaultTask ?? '');
    setRun(null);
    setFailure(null);
  }, [detail.data]);
  useEffect(() => () => follow.current?.abort(), []);

  const watch = async (summary: RunSummary) => {
    follow.current?.abort();
    const controller = new AbortController();
    follow.current = controller;
    setRun(emptyRun());
    setBusy(true);
    try {
      await streamEvents<EnsembleEvent>(
        `/runs/${encodeURIComponent(summary.runId)}/events`,
        undefined,
        (event) => setRun((view) => applyRunEvent(view ?? emptyRun(), event)),
        controller.signal,
      );
    } catch (error) {
      if (!controller.signal.aborted) setFailure(describeError(error));
    } finally {
      setBusy(false);
      saved.reload();
    }
  };
  const start = async () => {
    if (!name) return;
    setFailure(null);
    try {
      await watch(
        await api<RunSummary>(
          `/ensembles/${encodeURIComponent(name)}/runs`,
          input ? { input } : {},
        ),
      );
    } catch (error) {
      setFailure(describeError(error));
    }
  };
  const resume = async (runId: string) => {
    setFailure(null);
    try {
      await watch(await api<RunSummary>(`/runs/${encodeURIComponent(runId)}/resume`, {}));
    } catch (error) {
      setFailure(describeError(error));
    }
  };

  if (list.error) return <Failure error={list.error} retry={list.reload} />;
  if (!list.data) return <Loading what="ensembles" />;
  if (list.data.ensembles.length === 0)
    return (
      <Empty title="This server offers no ensembles.">
        Put ensemble YAML files in a directory and name it as <code>ensembles_dir</code> in
        colloquy.yaml, then restart <code>colloquy serve</code>.
      </Empty>
    );
  return (
    <div className="split">
      <aside className="split-side narrow">
        <h1>Ensembles</h1>
        <ul className="plain list">
          {list.data.ensembles.map((e) => (
            <li key={e.name}>
              <button type="button" aria-pressed={e.name === name} onClick={() => onSelect(e.name)}>
                {e.name}
              </button>
            </li>
          ))}
        </ul>
        {saved.data && saved.data.runs.length > 0 ? (
          <>
            <h2>Runs</h2>
            <ul className="plain list" data-testid="saved-runs">
              {saved.data.runs.map((r) => (
                <li key={r.runId} className="run-line">
                  <code className="small">{r.runId.slice(0, 18)}</code>
                  <span className="muted small">
                    {r.status} · {r.turnCount} turns
                    {r.completionReason ? ` · ${r.completionReason}` : ''}
                  </span>
                  {r.status === 'interrupted' ? (
                    <button type="button" onClick={() => void resume(r.runId)} disabled={busy}>
                      Resume
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </aside>
      <div className="split-main">
        {!name ? (
          <Empty title="Pick an ensemble on the left to see its agents and run it." />
        ) : detail.error ? (
          <Failure error={detail.error} retry={detail.reload} />
        ) : !detail.data ? (
          <Loading what="the ensemble" />
        ) : (
          <>
            <div className="toolbar">
              <h1>{detail.data.name}</h1>
              <span className="muted">{detail.data.description}</span>
            </div>
            <form
              className="composer"
              onSubmit={(event) => {
                event.preventDefault();
                void start();
              }}
            >
              <label className="grow">
                <span className="sr-only">Input</span>
                <textarea
                  rows={2}
                  value={input}
                  onChange={(e) => setInput(e.target.value)}
                  name="input"
                  placeholder="Input for the run"
                />
              </label>
              <button type="submit" className="primary" disabled={busy}>
                {busy ? 'Running…' : 'Run'}
              </button>
            </form>
            {failure ? (
              <div className="error-text" role="alert">
                {failure}
              </div>
            ) : null}
            <RunPanel detail={detail.data} run={run ?? emptyRun()} />
          </>
        )}
      </div>
    </div>
  );
}
