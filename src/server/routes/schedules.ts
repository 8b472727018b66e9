/**
 * `POST /schedules`, `GET /schedules` and `DELETE /schedules/:id`: schedules that send an agency
 * a message, or start an ensemble run, on a cron expression or every so often (docs/runs.md). With
 * users signed in (`serve --auth jwt`), a schedule belongs to its `user`: a user adds schedules for
 * themself only, lists and removes only their own (another user's reads as not found); admins act
 * on all.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { scheduleBodySchema, scheduleIdSchema } from '../../schedules/spec.js';
import { currentPrincipal, type Principal } from '../auth/principal.js';
import type { RouteContext } from '../context.js';
import { HttpError, notFound, readJson, validationError } from '../errors.js';
import { checkSchedule, ScheduleFieldError } from '../schedules/check.js';
import type { Schedules, ScheduleView } from '../schedules/types.js';

/** Whether the signed-in user (if any) may see a schedule. */
function visible(principal: Principal | undefined, schedule: ScheduleView): boolean {
  return !principal || principal.admin || schedule.user === principal.userId;
}

function scheduleNotFound(id: string): HttpError {
  return notFound(
    'SCHEDULE_NOT_FOUND',
    `Schedule "${id}"`,
    [],
    'List your schedules with GET /schedules.',
  );
}

/** The schedule routes over `schedules` (see the module comment). */
export function scheduleRoutes(context: RouteContext, schedules: Schedules): Hono {
  const app = new Hono();

  app.post('/schedules', async (c) => {
    const body = await readJson(c, scheduleBodySchema);
    const principal = currentPrincipal();
    if (
      principal &&
      !principal.admin &&
      body.user !== undefined &&
      body.user !== principal.userId
    ) {
      throw new HttpError(
        400,
        'INVALID_BODY',
        `Invalid "user" of the request body: a signed-in user schedules runs for themself only (you are "${principal.userId}"). Leave "user" out, or ask an admin.`,
        'user',
      );
    }
    const { id = `sched_${randomUUID()}`, ...spec } = body;
    const user = spec.user ?? principal?.userId;
    const schedule = { ...spec, ...(user !== undefined ? { user } : {}) };
    try {
      await checkSchedule(context.registry, schedule, 'The request body');
    } catch (error) {
      if (!(error instanceof ScheduleFieldError)) throw error;
      throw new HttpError(400, 'INVALID_BODY', error.message, error.field);
    }
    const view = await schedules.add({ ...schedule, id, source: 'api' });
    return c.json(view, 201);
  });

  app.get('/schedules', async (c) => {
    const principal = currentPrincipal();
    const all = await schedules.list();
    return c.json({ schedules: all.filter((schedule) => visible(principal, schedule)) });
  });

  app.delete('/schedules/:id', async (c) => {
    const id = c.req.param('id');
    const parsed = scheduleIdSchema.safeParse(id);
    if (!parsed.success) throw validationError(parsed.error, 'schedule id in the path');
    const schedule = await schedules.get(id);
    if (!schedule || !visible(currentPrincipal(), schedule)) throw scheduleNotFound(id);
    await schedules.remove(id);
    return c.json({ id, removed: true });
  });

  return app;
}
