/**
 * `GET /ensembles/:name`: an ensemble's agents and their dependencies (the DAG a UI draws) and
 * its limits; `GET /runs?ensemble=`: the runs saved in the server's store, newest first.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Ensemble } from '../../ensembles/schema.js';
import type { ThreadRecord } from '../../stores/types.js';
import type { RouteContext } from '../context.js';
import { readQuery } from '../errors.js';

/** The body of `GET /ensembles/:name`. */
export function describeEnsemble(name: string, ensemble: Ensemble) {
  return {
    name,
    ensembleName: ensemble.name,
    ...(ensemble.description !== undefined ? { description: ensemble.description } : {}),
    ...(ensemble.default_task !== undefined ? { defaultTask: ensemble.default_task } : {}),
    agents: ensemble.agents.map((agent) => ({
      name: agent.name,
      kind: agent.kind,
      ...(agent.model_profile !== undefined ? { modelProfile: agent.model_profile } : {}),
      ...(agent.dispatch !== undefined ? { dispatch: agent.dispatch } : {}),
      dependsOn: agent.depends_on.map((dep) => ({
        agent: dep.agent_name,
        maxExecutions: dep.max_executions,
        requiresAll: dep.requires_all,
        ...(dep.condition !== undefined ? { condition: dep.condition } : {}),
      })),
    })),
    limits: ensemble.conversation_limits,
  };
}

/** One saved run as `GET /runs` lists it. */
export interface SavedRunSummary {
  runId: string;
  ensemble: string;
  status: 'finished' | 'interrupted';
  turnCount: number;
  completionReason?: string;
  updatedAt: string;
}

/** The saved runs among a store's threads (main threads holding a workflow), newest first. */
export function savedRuns(records: readonly ThreadRecord[]): SavedRunSummary[] {
  const runs: SavedRunSummary[] = [];
  for (const record of records) {
    if (record.metadata.kind !== 'workflow' || record.chatId === null) continue;
    const workflow = record.metadata.workflow as
      { data?: Record<string, unknown>; conversation?: { turn_count?: number } } | undefined;
    const data = workflow?.data ?? {};
    const result = data.result as { completion_reason?: string } | undefined;
    runs.push({
      runId: record.chatId,
      ensemble: String(data.ensemble ?? ''),
      status: data.status === 'finished' ? 'finished' : 'interrupted',
      turnCount: workflow?.conversation?.turn_count ?? 0,
      ...(result?.completion_reason ? { completionReason: result.completion_reason } : {}),
      updatedAt: record.updatedAt,
    });
  }
  return runs.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

const runsQuery = z.object({
  ensemble: z.string().min(1).optional(),
  limit: z.coerce.number().int().positive().max(1000).optional(),
});

/** `GET /ensembles/:name` and `GET /runs`. */
export function ensembleDetailRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { ensembles, runs } = context.registry;
  app.get('/ensembles/:name', async (c) => {
    const name = c.req.param('name');
    return c.json(describeEnsemble(name, await ensembles.load(name)));
  });
  app.get('/runs', async (c) => {
    const query = readQuery(c, runsQuery);
    const all = savedRuns(await runs.store.listThreads());
    const listed = query.ensemble ? all.filter((run) => run.ensemble === query.ensemble) : all;
    return c.json({ runs: listed.slice(0, query.limit ?? 100) });
  });
  return app;
}
