/** Network: an agency's used edges (calls, failures, p50/p95, tokens), unused flows and failing agents, from its traces. */
import { Empty, Failure, Loading } from '../components/States';
import { useApi } from '../lib/useApi';
import { formatMs } from '../lib/waterfall';

interface Edge {
  from: string;
  to: string;
  calls: number;
  failures: number;
  p50Ms: number | null;
  p95Ms: number | null;
  tokens: number;
  cost: number | null;
}

interface Network {
  since: string;
  until: string;
  edges: Edge[];
  unused: Array<{ from: string; to: string }>;
  failing: Array<{ agent: string; failures: number }>;
}

export function NetworkView({ agency }: { agency: string | undefined }) {
  const network = useApi<Network>(
    agency ? `/agencies/${encodeURIComponent(agency)}/network` : null,
  );
  if (!agency) return <Empty title="Pick an agency on the left." />;
  if (network.error) return <Failure error={network.error} retry={network.reload} />;
  if (!network.data) return <Loading what="network" />;
  const { edges, unused, failing, since, until } = network.data;
  return (
    <div className="network" data-testid="network">
      <h1>Network of {agency}</h1>
      <p className="muted small">
        From the stored traces, {new Date(since).toLocaleString()} –{' '}
        {new Date(until).toLocaleString()}
      </p>
      {edges.length === 0 ? (
        <Empty title="No calls in this window.">
          Send a message in Chat; each delegation is an edge.
        </Empty>
      ) : (
        <table className="table" data-testid="network-edges">
          <thead>
            <tr>
              <th>From → to</th>
              <th>Calls</th>
              <th>Failures</th>
              <th>p50</th>
              <th>p95</th>
              <th>Tokens</th>
            </tr>
          </thead>
          <tbody>
            {edges.map((edge) => (
              <tr
                key={`${edge.from}>${edge.to}`}
                data-testid="network-edge"
                className={edge.failures ? 'error-text' : ''}
              >
                <td>
                  {edge.from} → <strong>{edge.to}</strong>
                </td>
                <td>{edge.calls}</td>
                <td>{edge.failures}</td>
                <td>{edge.p50Ms === null ? '—' : formatMs(edge.p50Ms)}</td>
                <td>{edge.p95Ms === null ? '—' : formatMs(edge.p95Ms)}</td>
                <td>{edge.tokens}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Declared but unused</h2>
      {unused.length === 0 ? (
        <p className="muted small">Every declared flow was used.</p>
      ) : (
        <ul data-testid="network-unused">
          {unused.map((flow) => (
            <li key={`${flow.from}>${flow.to}`}>
              {flow.from} → {flow.to}
            </li>
          ))}
        </ul>
      )}
      <h2>Agents that fail most</h2>
      {failing.length === 0 ? (
        <p className="muted small">No failed calls.</p>
      ) : (
        <ol>
          {failing.map((f) => (
            <li key={f.agent}>
              {f.agent}: {f.failures}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
