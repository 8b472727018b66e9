/** Agencies: the graph of agents, flows and entry points; select an agent for its details. */
import { useState } from 'react';
import { Graph, type GraphEdge, type GraphNode } from '../components/Graph';
import { Empty, Failure, Loading } from '../components/States';
import type { AgencyGraph, AgentDetail } from '../lib/types';
import { useApi } from '../lib/useApi';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function AgentPanel({ agent }: { agent: AgentDetail }) {
  return (
    <section className="panel" aria-labelledby="agent-title" data-testid="agent-panel">
      <h2 id="agent-title">
        {agent.name}
        {agent.entryPoint ? <span className="pill">entry point</span> : null}
      </h2>
      <p>{agent.description || <em>No description.</em>}</p>
      <h3>Model</h3>
      <p>
        <code>{agent.model ?? 'runner default'}</code>
      </p>
      {Object.keys(agent.modelSettings).length > 0 ? (
        <pre className="pre">{JSON.stringify(agent.modelSettings, null, 2)}</pre>
      ) : null}
      <h3>Instructions</h3>
      {agent.instructions === null ? (
        <p>
          <em>Computed at run time (a function).</em>
        </p>
      ) : (
        <pre className="pre wrap">{agent.instructions || '(none)'}</pre>
      )}
      <h3>Tools</h3>
      {agent.tools.length === 0 ? (
        <p>
          <em>None.</em>
        </p>
      ) : (
        <ul className="plain">
          {agent.tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code> {tool.description ? `: ${tool.description}` : ''}
            </li>
          ))}
        </ul>
      )}
      <h3>May message</h3>
      <p>{agent.recipients.length ? agent.recipients.join(', ') : <em>nobody</em>}</p>
      {agent.handoffs.length ? (
        <>
          <h3>Handoffs</h3>
          <p>{agent.handoffs.join(', ')}</p>
        </>
      ) : null}
    </section>
  );
}

export function AgenciesView({
  agency,
  onChat,
}: {
  agency: string | undefined;
  onChat: () => void;
}) {
  const graph = useApi<AgencyGraph>(
    agency ? `/agencies/${encodeURIComponent(agency)}/graph` : null,
  );
  const [selected, setSelected] = useState<string | null>(null);
  if (!agency)
    return (
      <Empty title="No agency selected.">
        Serve one with <code>colloquy serve</code> (set <code>agencies:</code> in colloquy.yaml) or{' '}
        <code>colloquy dev agencies.ts</code>, then pick it on the left.
      </Empty>
    );
  if (graph.error) return <Failure error={graph.error} retry={graph.reload} />;
  if (!graph.data) return <Loading what="the agency" />;
  const data = graph.data;
  const nodes: GraphNode[] = [
    { id: '__user', label: 'User', kind: 'user' },
    ...data.agents.map((agent): GraphNode => ({
      id: agent.name,
      label: agent.name,
      sublabel: agent.model ?? undefined,
      kind: agent.entryPoint ? 'entry' : 'agent',
      selected: agent.name === selected,
    })),
  ];
  const edges: GraphEdge[] = [
    ...data.entryPoints.map((entry) => ({ source: '__user', target: entry })),
    ...data.flows.map(([source, target]) => ({ source, target, label: 'send_message' })),
  ];
  const agent = data.agents.find((a) => a.name === selected);
  return (
    <div className="split">
      <div className="split-main">
        <div className="toolbar">
          <h1>{data.name}</h1>
          <span className="muted" data-testid="graph-summary">
            {plural(data.agents.length, 'agent')} · {plural(data.flows.length, 'flow')} · entry:{' '}
            {data.entryPoints.join(', ')}
          </span>
          <button type="button" className="primary" onClick={onChat}>
            Chat with {data.name}
          </button>
        </div>
        <Graph
          nodes={nodes}
          edges={edges}
          label={`Graph of agency ${data.name}`}
          onSelect={(id) => setSelected(id === '__user' ? null : id)}
        />
      </div>
      <aside className="split-side">
        <nav aria-label="Agents" className="chips">
          {data.agents.map((a) => (
            <button
              key={a.name}
              type="button"
              aria-pressed={a.name === selected}
              onClick={() => setSelected(a.name === selected ? null : a.name)}
            >
              {a.name}
            </button>
          ))}
        </nav>
        {agent ? (
          <AgentPanel agent={agent} />
        ) : (
          <section className="panel">
            <h2>Select an agent</h2>
            <p>
              Click an agent in the graph (or a button above) to see its description, instructions,
              tools and model.
            </p>
            <h3>Mermaid</h3>
            <pre className="pre" data-testid="mermaid">
              {data.mermaid}
            </pre>
          </section>
        )}
      </aside>
    </div>
  );
}
