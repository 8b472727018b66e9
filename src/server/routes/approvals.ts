/**
 * `POST /agencies/:name/resume`: continues a call that stopped for tool approvals. The body
 * carries the `state` the interrupted response returned and the decisions (`approve` / `reject`:
 * call ids, or `true` for all); the answer is the resumed call's response (which may stop again).
 * The executor runs it: under `serve --queue`, any worker continues the call.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parsePendingCall } from '../../agency/approvals.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { HttpError, readJson } from '../errors.js';

const decision = z.union([z.literal(true), z.array(z.string().min(1))]);

/** The body of `POST /agencies/:name/resume`. */
export const resumeCallBodySchema = z
  .object({
    state: z.string().min(1, 'expected the state an interrupted response returned'),
    approve: decision.optional(),
    reject: decision.optional(),
    context: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** `/agencies/:name/resume`. */
export function approvalRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.post('/:name/resume', async (c) => {
    const name = c.req.param('name');
    agencyNamed(context, name);
    const body = await readJson(c, resumeCallBodySchema);
    let chatId: string;
    try {
      chatId = parsePendingCall(body.state).chatId;
    } catch (error) {
      throw new HttpError(400, 'INVALID_BODY', (error as Error).message, 'state');
    }
    context.registry.chats.remember(chatId, name);
    const result = await context.inflight.track(
      context.executor.calls.resume(name, body.state, {
        signal: c.req.raw.signal,
        ...(body.approve !== undefined ? { approve: body.approve } : {}),
        ...(body.reject !== undefined ? { reject: body.reject } : {}),
        ...(body.context !== undefined ? { context: body.context } : {}),
      }),
    );
    return c.json(result);
  });
  return app;
}
