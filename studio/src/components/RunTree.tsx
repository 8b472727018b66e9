/** The live tree of a streamed call: who talks to whom, nested under the send_message that caused it. */
import type { RunEntry, RunNode, StreamTree } from '../lib/streamTree';

function prettyArgs(args: string): string {
  try {
    const parsed = JSON.parse(args) as Record<string, unknown>;
    return Object.entries(parsed)
      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('\n');
  } catch {
    return args;
  }
}

function Entry({ entry, tree }: { entry: RunEntry; tree: StreamTree }) {
  switch (entry.kind) {
    case 'text':
      return (
        <div className={`run-text${entry.open ? ' streaming' : ''}`} data-testid="run-text">
          {entry.text}
        </div>
      );
    case 'handoff':
      return <div className="run-handoff">↪ handed off to {entry.to}</div>;
    case 'run': {
      const child = tree.runs[entry.runId];
      return child ? <Run run={child} tree={tree} /> : null;
    }
    case 'tool_call':
      return (
        <div className="tool-call" data-testid="tool-call" data-tool={entry.name}>
          <div className="tool-head">
            <span className="tool-name">
              {entry.name === 'send_message' ? '✉ send_message' : `⚙ ${entry.name}`}
            </span>
          </div>
          <pre className="pre wrap small">{prettyArgs(entry.arguments)}</pre>
          {entry.children.map((id) => {
            const child = tree.runs[id];
            return child ? <Run key={id} run={child} tree={tree} /> : null;
          })}
          {entry.output !== undefined && /^(error|an error occurred)/i.test(entry.output) ? (
            <div className="tool-output error-text" role="alert" data-testid="tool-error">
              <span>✖ failed</span> {entry.output}
            </div>
          ) : entry.output !== undefined ? (
            <div className="tool-output">
              <span className="muted">→ result</span> {entry.output}
            </div>
          ) : (
            <div className="tool-output muted">waiting…</div>
          )}
        </div>
      );
  }
}

export function Run({ run, tree }: { run: RunNode; tree: StreamTree }) {
  return (
    <div
      className={`run run-${run.status}`}
      data-testid="run"
      data-agent={run.agent}
      data-depth={run.depth}
      style={{ ['--depth' as string]: run.depth }}
    >
      <div className="run-head">
        <span className="who">
          {run.callerAgent ?? 'User'} → <strong>{run.agent}</strong>
        </span>
        <span className={`status status-${run.status}`}>{run.status}</span>
        {run.usage ? (
          <span className="muted small">
            {run.usage.totalTokens} tokens · {run.usage.requests} model{' '}
            {run.usage.requests === 1 ? 'call' : 'calls'}
          </span>
        ) : null}
      </div>
      {run.depth > 0 ? <div className="run-msg">{run.message}</div> : null}
      {run.entries.map((entry, i) => (
        <Entry key={i} entry={entry} tree={tree} />
      ))}
      {run.error ? <div className="error-text">{run.error.message}</div> : null}
    </div>
  );
}

export function RunTree({ tree }: { tree: StreamTree }) {
  return (
    <div className="run-tree">
      {tree.roots.map((id) => {
        const run = tree.runs[id];
        return run ? <Run key={id} run={run} tree={tree} /> : null;
      })}
    </div>
  );
}
