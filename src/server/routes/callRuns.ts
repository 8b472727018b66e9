/**
 * Background agency calls: `POST /agencies/:name/runs` (the body of `/responses`) answers 202
 * `{ runId, status: 'running' }`; `GET /runs/:id`, `GET /runs/:id/events` (SSE, stable ids,
 * `Last-Event-ID` resumes) and `DELETE /runs/:id` serve them. Ids of other runs (ensemble runs)
 * fall through to the ensemble routes, which answer them as before.
 * @module
 */
import { Hono } from 'hono';
import type { z } from 'zod';
import { agencyNamed, idSchema, newChatId, type RouteContext } from '../context.js';
import { HttpError, readJson, validationError } from '../errors.js';
import { streamEvents } from '../sse.js';
import { notifyRunEnded, webhookSchema } from '../runs/webhook.js';
import { callOptions, inputOf, readBody, responseBodySchema } from './agencies.js';

/** The body of `POST /agencies/:name/runs`: that of `/responses`, and an optional `webhook`. */
const runBodySchema = responseBodySchema.extend({ webhook: webhookSchema.optional() }).strict();

function links(runId: string) {
  return { state: `/runs/${runId}`, events: `/runs/${runId}/events` };
}

/** The `Last-Event-ID` (or `?after=`) of a request: the last event id the client has, or -1. */
export function lastEventId(header: string | undefined, query: string | undefined): number {
  const value = Number(header ?? query ?? -1);
  return Number.isInteger(value) && value >= -1 ? value : -1;
}

/** `POST /agencies/:name/runs` and the `/runs/:id` routes of background calls. */
export function callRunRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { callRuns } = context;

  app.post('/agencies/:name/runs', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const { webhook, ...body }: z.output<typeof runBodySchema> = (
      c.req.header('content-type') ?? ''
    ).startsWith('multipart/')
      ? await readBody(c)
      : await readJson(c, runBodySchema);
    const chatId = body.chatId ?? newChatId();
    const options = callOptions(agency, body, chatId, new AbortController().signal);
    context.registry.chats.remember(chatId, name);
    const { summary, done } = await callRuns.start(name, inputOf(body), { ...options, chatId });
    void context.inflight.track(done);
    if (webhook)
      void done.then(async () =>
        notifyRunEnded(webhook, (await callRuns.state(summary.runId)) ?? summary),
      );
    return c.json({ ...summary, links: links(summary.runId) }, 202);
  });

  app.get('/runs/:id', async (c, next) => {
    const summary = await callRuns.state(c.req.param('id'));
    if (!summary) return next();
    return c.json({ ...summary, links: links(summary.runId) });
  });

  app.get('/runs/:id/events', async (c, next) => {
    const runId = c.req.param('id');
    if (!(await callRuns.state(runId))) return next();
    const after = lastEventId(c.req.header('last-event-id'), c.req.query('after'));
    // The client leaving stops this stream only: the call keeps running.
    return streamEvents(c, (signal) => callRuns.follow(runId, after, signal), {
      inflight: context.inflight,
    });
  });

  app.delete('/runs/:id', async (c, next) => {
    const runId = c.req.param('id');
    const parsed = idSchema.safeParse(runId);
    if (!parsed.success) throw validationError(parsed.error, 'run id in the path');
    const cancelled = await callRuns.cancel(
      runId,
      `The run was cancelled (DELETE /runs/${runId}).`,
    );
    if (cancelled === null) return next();
    if (!cancelled) {
      const { status } = (await callRuns.state(runId))!;
      throw new HttpError(
        409,
        'RUN_NOT_RUNNING',
        `Run "${runId}" is not running (status ${status}): there is nothing to cancel.`,
      );
    }
    const summary = await callRuns.state(runId);
    return c.json({ ...summary!, cancelled: true, links: links(runId) }, 202);
  });

  return app;
}
