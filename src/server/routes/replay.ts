/**
 * `POST /chats/:chatId/replay`: "what if?" over HTTP. Runs the turn that holds item `at` again in
 * a fork of the chat, with `set` changes (an agent's instructions or model name) or another
 * `message`, on the agency that ran the chat, and answers with the fork's chat id, the model calls
 * replayed and made live, the differences and both branches (see `replayChat`).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { replayChat } from '../../agency/replay/replay.js';
import { idSchema, type RouteContext } from '../context.js';
import { readJson, validationError } from '../errors.js';

const changeSchema = z
  .object({
    instructions: z.string().min(1, 'expected the new instructions as text').optional(),
    model: z.string().min(1, 'expected a model name').optional(),
  })
  .strict();

/** The body of `POST /chats/:chatId/replay`. */
export const replayBody = z
  .object({
    at: idSchema,
    set: z.record(z.string().min(1), changeSchema).optional(),
    message: z.string().min(1, "expected the user's new message").optional(),
    agency: z.string().min(1).optional(),
  })
  .strict();

/** The replay route. */
export function replayRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { chats } = context.registry;

  app.post('/chats/:chatId/replay', async (c) => {
    const parsed = idSchema.safeParse(c.req.param('chatId'));
    if (!parsed.success) throw validationError(parsed.error, 'chat id in the path');
    const chatId = parsed.data;
    const body = await readJson(c, replayBody);
    const { name, agency } = await chats.agencyOf(chatId, body.agency);
    const result = await replayChat(agency, {
      chatId,
      at: body.at,
      ...(body.set ? { set: body.set } : {}),
      ...(body.message !== undefined ? { message: body.message } : {}),
      signal: c.req.raw.signal,
    });
    chats.remember(result.chatId, name);
    return c.json(result, 201);
  });

  return app;
}
