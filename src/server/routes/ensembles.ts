/**
 * Ensemble routes: list ensembles, start a run (in the background), read its state, follow its
 * progress events over SSE, cancel it, resume it from its last checkpoint.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { answersFileSchema, ScriptedInputHandler } from '../../ensembles/inputHandlers.js';
import { idSchema, type RouteContext } from '../context.js';
import { HttpError, readJson, runNotFound, validationError } from '../errors.js';
import type { StartRunOptions } from '../ensembleRuns.js';
import { streamEvents } from '../sse.js';
import { notifyEnsembleRunEnded, webhookSchema } from '../runs/webhook.js';

/** The body of `POST /ensembles/:name/runs`. */
export const startRunBodySchema = z
  .object({
    input: z.string().optional(),
    runId: idSchema
      .regex(/^[A-Za-z0-9_.:-]+$/, 'expected a run id of letters, digits, "_", ".", ":" or "-"')
      .optional(),
    context: z.record(z.string(), z.unknown()).optional(),
    answers: answersFileSchema.optional(),
    webhook: webhookSchema.optional(), // the outcome is POSTed there (runs/webhook.ts)
  })
  .strict();

/** The body of `POST /runs/:id/resume`. */
export const resumeBodySchema = z.object({ answers: answersFileSchema.optional() }).strict();

function runIdParam(raw: string): string {
  const parsed = idSchema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'run id in the path');
  return parsed.data;
}

function links(runId: string) {
  return {
    state: `/runs/${runId}`,
    events: `/runs/${runId}/events`,
    resume: `/runs/${runId}/resume`,
  };
}

/** `/ensembles` and `/runs` routes. */
export function ensembleRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { ensembles } = context.registry;
  const { runs } = context.executor;

  app.get('/ensembles', async (c) =>
    c.json({ ensembles: (await ensembles.names()).map((name) => ({ name })) }),
  );

  app.post('/ensembles/:name/runs', async (c) => {
    const body = await readJson(c, startRunBodySchema);
    const options: StartRunOptions = {
      ...(body.input !== undefined ? { input: body.input } : {}),
      ...(body.runId !== undefined ? { runId: body.runId } : {}),
      ...(body.context !== undefined ? { initialContext: body.context } : {}),
      ...(body.answers ? { inputHandler: new ScriptedInputHandler(body.answers) } : {}),
    };
    const summary = await runs.start(c.req.param('name'), options);
    if (body.webhook) void notifyEnsembleRunEnded(runs, summary.runId, body.webhook);
    return c.json({ ...summary, links: links(summary.runId) }, 202);
  });

  app.get('/runs/:id', async (c) => {
    const runId = runIdParam(c.req.param('id'));
    const summary = await runs.state(runId);
    if (!summary) throw runNotFound(runId);
    return c.json({ ...summary, links: links(runId) });
  });

  app.get('/runs/:id/events', async (c) => {
    const runId = runIdParam(c.req.param('id'));
    if (!(await runs.state(runId))) throw runNotFound(runId);
    const lastEventId = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? -1);
    const after = Number.isInteger(lastEventId) ? lastEventId : -1;
    return streamEvents(c, (signal) => runs.follow(runId, after, signal), {
      inflight: context.inflight,
    });
  });

  // Stops a running run (in this process or on its worker); it ends `interrupted`, resumable.
  app.delete('/runs/:id', async (c) => {
    const runId = runIdParam(c.req.param('id'));
    const outcome = await runs.cancel(runId, 'The run was cancelled (DELETE /runs/:id).');
    if (!outcome) throw runNotFound(runId);
    if (!outcome.cancelled) {
      throw new HttpError(
        409,
        'RUN_NOT_RUNNING',
        `Run "${runId}" is not running (status ${outcome.summary.status}): there is nothing to cancel.`,
      );
    }
    const { summary } = outcome;
    return c.json(
      { ...summary, cancelled: true, links: links(runId) },
      summary.status === 'running' ? 202 : 200,
    );
  });

  app.post('/runs/:id/resume', async (c) => {
    const runId = runIdParam(c.req.param('id'));
    const body = await readJson(c, resumeBodySchema);
    const summary = await runs.resume(
      runId,
      body.answers ? { inputHandler: new ScriptedInputHandler(body.answers) } : {},
    );
    return c.json({ ...summary, links: links(runId) }, summary.status === 'running' ? 202 : 200);
  });

  return app;
}
