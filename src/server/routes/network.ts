/**
 * `GET /agencies/:name/network?since=&until=` (ISO times; default the last 24 hours): the agency
 * as a network, computed from its stored traces on any store. Each used edge is
 * `{ from, to, calls, failures, p50Ms, p95Ms, tokens, cost }` (cost is null: traces keep no
 * prices); `unused` lists declared flows with no call; `failing` ranks agents by failed calls.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { SpanRecord } from '../../stores/traceStore.js';
import { traceStoreFor } from '../../stores/traceStores.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { readQuery } from '../errors.js';

const query = z.object({
  since: z.string().datetime({ offset: true }).optional(),
  until: z.string().datetime({ offset: true }).optional(),
});

/** One used edge of the network. */
export interface NetworkEdge {
  from: string;
  to: string;
  calls: number;
  failures: number;
  p50Ms: number | null;
  p95Ms: number | null;
  tokens: number;
  cost: number | null;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The edges of the send_message spans of some traces' spans. */
export function networkEdges(spans: readonly SpanRecord[]): NetworkEdge[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const agentOf = (id: string | null | undefined): string | undefined => {
    for (let span = id ? byId.get(id) : undefined; span; span = byId.get(span.parentId ?? ''))
      if (span.kind === 'agent') return String(span.attributes.agent ?? span.name);
    return undefined;
  };
  const edges = new Map<string, NetworkEdge & { durations: number[] }>();
  for (const span of spans) {
    if (span.kind !== 'send_message') continue;
    const to = span.attributes.recipient;
    const from = agentOf(span.parentId);
    if (typeof to !== 'string' || !from) continue;
    const key = `${from}\u0000${to}`;
    const edge = edges.get(key) ?? {
      from,
      to,
      calls: 0,
      failures: 0,
      p50Ms: null,
      p95Ms: null,
      tokens: 0,
      cost: null,
      durations: [],
    };
    edge.calls += 1;
    const output = span.attributes.output;
    if (span.error || (typeof output === 'string' && /^error/i.test(output))) edge.failures += 1;
    if (span.durationMs !== undefined) edge.durations.push(span.durationMs);
    for (const child of spans)
      if (child.parentId === span.spanId && child.kind === 'agent')
        edge.tokens +=
          Number(child.attributes.inputTokens ?? 0) + Number(child.attributes.outputTokens ?? 0);
    edges.set(key, edge);
  }
  return [...edges.values()].map(({ durations, ...edge }) => {
    const sorted = durations.sort((a, b) => a - b);
    return { ...edge, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
  });
}

/** `GET /agencies/:name/network`. */
export function networkRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get('/agencies/:name/network', async (c) => {
    const { since, until } = readQuery(c, query);
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const to = until ? new Date(until) : new Date();
    const from = since ? new Date(since) : new Date(to.getTime() - 24 * 3600_000);
    const store = await traceStoreFor(agency.threads.store);
    const spans: SpanRecord[] = [];
    for (const trace of await store.listTraces({ limit: 1000 })) {
      if (trace.agency !== undefined && trace.agency !== name) continue;
      const at = Date.parse(trace.startedAt);
      if (at < from.getTime() || at > to.getTime()) continue;
      spans.push(...((await store.getTrace(trace.traceId))?.spans ?? []));
    }
    const edges = networkEdges(spans);
    const used = new Set(edges.map((e) => `${e.from}\u0000${e.to}`));
    const unused = agency.flows
      .map(([flowFrom, flowTo]) => ({ from: flowFrom, to: flowTo }))
      .filter((flow) => !used.has(`${flow.from}\u0000${flow.to}`));
    const failures = new Map<string, number>();
    for (const edge of edges)
      if (edge.failures > 0) failures.set(edge.to, (failures.get(edge.to) ?? 0) + edge.failures);
    const failing = [...failures]
      .map(([agent, count]) => ({ agent, failures: count }))
      .sort((a, b) => b.failures - a.failures);
    return c.json({
      agency: name,
      since: from.toISOString(),
      until: to.toISOString(),
      edges,
      unused,
      failing,
    });
  });
  return app;
}
