/**
 * `GET /ensembles/:name`: an ensemble's agents and their dependencies (the DAG a UI draws) and
 * its limits; `GET /runs?ensemble=`: the runs saved in the server's store, newest first.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Ensemble } from '../../ensembles/schema.js';
import { savedRuns } from '../../ensembles/savedRuns.js';
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

// What a saved run looks like in a store is the ensembles' business: ask them.
export { savedRuns, type SavedRunSummary } from '../../ensembles/savedRuns.js';

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
