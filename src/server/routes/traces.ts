/**
 * Trace routes: `GET /traces?chatId=&runId=&limit=` lists stored traces newest first, and
 * `GET /traces/:traceId` returns one with its spans. Traces are read from the trace stores of the
 * served agencies' thread stores and of the ensemble runs' store (the same databases).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { traceStoreFor } from '../../stores/traceStores.js';
import type { TraceStore, TraceSummary } from '../../stores/traceStore.js';
import { idSchema, type RouteContext } from '../context.js';
import { notFound, readQuery, validationError } from '../errors.js';

const listQuery = z.object({
  chatId: idSchema.optional(),
  runId: idSchema.optional(),
  limit: z.coerce.number().int().positive().max(1000).optional(),
});

/** The distinct trace stores behind a registry. */
export async function registryTraceStores(context: RouteContext): Promise<TraceStore[]> {
  const threadStores = new Set([
    ...[...context.registry.agencies.values()].map((agency) => agency.threads.store),
    context.registry.runs.store,
  ]);
  const stores = await Promise.all([...threadStores].map((store) => traceStoreFor(store)));
  return [...new Set(stores)];
}

/** `/traces` routes. */
export function traceRoutes(context: RouteContext): Hono {
  const app = new Hono();

  app.get('/traces', async (c) => {
    const query = readQuery(c, listQuery);
    const limit = query.limit ?? 50;
    const filter = {
      ...(query.chatId ? { chatId: query.chatId } : {}),
      ...(query.runId ? { runId: query.runId } : {}),
      limit,
    };
    const lists = await Promise.all(
      (await registryTraceStores(context)).map((store) => store.listTraces(filter)),
    );
    const seen = new Set<string>();
    const traces: TraceSummary[] = lists
      .flat()
      .filter((trace) => !seen.has(trace.traceId) && seen.add(trace.traceId))
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .slice(0, limit);
    return c.json({ traces });
  });

  app.get('/traces/:traceId', async (c) => {
    const parsed = idSchema.safeParse(c.req.param('traceId'));
    if (!parsed.success) throw validationError(parsed.error, 'trace id in the path');
    for (const store of await registryTraceStores(context)) {
      const found = await store.getTrace(parsed.data);
      if (found) return c.json({ trace: found.trace, spans: found.spans });
    }
    throw notFound(
      'TRACE_NOT_FOUND',
      `Trace "${parsed.data}"`,
      [],
      'List the stored traces with GET /traces?chatId=CHAT.',
    );
  });
  return app;
}
