/**
 * Trace routes: `GET /traces?chatId=&runId=&limit=` lists stored traces newest first, each with a
 * `title` (its chat's first user message, else the trace's name), and `GET /traces/:traceId`
 * returns one with its spans. Traces are read from the trace stores of the served agencies'
 * thread stores and of the ensemble runs' store (the same databases).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { traceStoreFor } from '../../stores/traceStores.js';
import type { TraceStore, TraceSummary } from '../../stores/traceStore.js';
import type { ThreadStore } from '../../stores/types.js';
import { idSchema, type RouteContext } from '../context.js';
import { notFound, readQuery, validationError } from '../errors.js';
import { chatTitle } from './chatList.js';

const listQuery = z.object({
  chatId: idSchema.optional(),
  runId: idSchema.optional(),
  limit: z.coerce.number().int().positive().max(1000).optional(),
});

/** A trace store with the thread store it belongs to (where its chats' messages are). */
interface StorePair {
  threads: ThreadStore;
  traces: TraceStore;
}

/** The distinct trace stores behind a registry, each with its thread store. */
async function registryStorePairs(context: RouteContext): Promise<StorePair[]> {
  const threadStores = new Set([
    ...[...context.registry.agencies.values()].map((agency) => agency.threads.store),
    context.registry.runs.store,
  ]);
  const pairs = await Promise.all(
    [...threadStores].map(async (threads) => ({ threads, traces: await traceStoreFor(threads) })),
  );
  const seen = new Set<TraceStore>();
  return pairs.filter((pair) => !seen.has(pair.traces) && seen.add(pair.traces));
}

/** The distinct trace stores behind a registry. */
export async function registryTraceStores(context: RouteContext): Promise<TraceStore[]> {
  return (await registryStorePairs(context)).map((pair) => pair.traces);
}

/** A listed trace: its summary and title. */
export type TitledTrace = TraceSummary & { title: string };

/**
 * Titles traces by their chat's first user message (read once per chat from the thread store
 * the trace was kept beside); a trace without a chat, or whose chat has no user message yet,
 * keeps its name as its title.
 */
async function titled(
  found: ReadonlyArray<{ trace: TraceSummary; threads: ThreadStore }>,
): Promise<TitledTrace[]> {
  const titles = new Map<ThreadStore, Map<string, Promise<string>>>();
  return Promise.all(
    found.map(async ({ trace, threads }) => {
      if (!trace.chatId) return { ...trace, title: trace.name };
      const ofStore = titles.get(threads) ?? new Map<string, Promise<string>>();
      titles.set(threads, ofStore);
      let title = ofStore.get(trace.chatId);
      if (!title) ofStore.set(trace.chatId, (title = chatTitle(threads, trace.chatId)));
      return { ...trace, title: (await title) || trace.name };
    }),
  );
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
      (await registryStorePairs(context)).map(async ({ threads, traces }) =>
        (await traces.listTraces(filter)).map((trace) => ({ trace, threads })),
      ),
    );
    const seen = new Set<string>();
    const found = lists
      .flat()
      .filter(({ trace }) => !seen.has(trace.traceId) && seen.add(trace.traceId))
      .sort((a, b) => b.trace.startedAt.localeCompare(a.trace.startedAt))
      .slice(0, limit);
    return c.json({ traces: await titled(found) });
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
