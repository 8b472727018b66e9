/**
 * Chat and thread routes: list a chat's threads, read a thread, and checkpoint, fork and roll back
 * a chat. Each chat is handled by its agency (the one that ran it, or `?agency=`), so that
 * checkpoints wait for the chat's running calls and rollbacks refresh the agency's thread cache.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isArchiveThreadId } from '../../stores/common.js';
import { idSchema, type RouteContext } from '../context.js';
import { notFound, readJson, readQuery, validationError } from '../errors.js';

const agencyQuery = z.object({
  agency: z.string().min(1).optional(),
  archived: z.enum(['true', 'false']).optional(),
});
const itemsQuery = z.object({
  from: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().positive().max(10_000).optional(),
});
const checkpointBody = z
  .object({ label: z.string().max(200).optional(), agency: z.string().min(1).optional() })
  .strict();
const forkBody = z
  .object({ checkpointId: idSchema.optional(), agency: z.string().min(1).optional() })
  .strict();
const rollbackBody = z
  .object({ checkpointId: idSchema, agency: z.string().min(1).optional() })
  .strict();

function chatIdParam(raw: string): string {
  const parsed = idSchema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'chat id in the path');
  return parsed.data;
}

/** `/chats` and `/threads` routes. */
export function threadRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { chats } = context.registry;

  app.get('/chats/:chatId/threads', async (c) => {
    const chatId = chatIdParam(c.req.param('chatId'));
    const query = readQuery(c, agencyQuery);
    const { name, agency } = await chats.agencyOf(chatId, query.agency);
    const records = await agency.threads.store.listThreads({ chatId });
    const threads =
      query.archived === 'true'
        ? records
        : records.filter((record) => !isArchiveThreadId(record.threadId));
    return c.json({ chatId, agency: name, threads });
  });

  app.get('/threads/:id', async (c) => {
    const threadId = c.req.param('id');
    const range = readQuery(c, itemsQuery);
    const found = await chats.findThread(threadId);
    if (!found) {
      throw notFound(
        'THREAD_NOT_FOUND',
        `Thread "${threadId}"`,
        [],
        "List a chat's threads with GET /chats/:chatId/threads to get thread ids.",
      );
    }
    const items = await found.store.readItems(threadId, range);
    return c.json({ thread: found.record, items });
  });

  app.post('/chats/:chatId/checkpoints', async (c) => {
    const chatId = chatIdParam(c.req.param('chatId'));
    const body = await readJson(c, checkpointBody);
    const { name, agency } = await chats.agencyOf(chatId, body.agency);
    const checkpointId = await agency.checkpoint(chatId, body.label);
    const checkpoint = await agency.threads.store.getCheckpoint(checkpointId);
    return c.json({ chatId, agency: name, checkpointId, checkpoint }, 201);
  });

  app.get('/chats/:chatId/checkpoints', async (c) => {
    const chatId = chatIdParam(c.req.param('chatId'));
    const { name, agency } = await chats.agencyOf(chatId, readQuery(c, agencyQuery).agency);
    return c.json({ chatId, agency: name, checkpoints: await agency.checkpoints(chatId) });
  });

  app.post('/chats/:chatId/fork', async (c) => {
    const chatId = chatIdParam(c.req.param('chatId'));
    const body = await readJson(c, forkBody);
    const { name, agency } = await chats.agencyOf(chatId, body.agency);
    const forked = await agency.forkChat(chatId, body.checkpointId);
    chats.remember(forked, name);
    return c.json(
      {
        chatId: forked,
        from: chatId,
        agency: name,
        ...(body.checkpointId ? { checkpointId: body.checkpointId } : {}),
      },
      201,
    );
  });

  app.post('/chats/:chatId/rollback', async (c) => {
    const chatId = chatIdParam(c.req.param('chatId'));
    const body = await readJson(c, rollbackBody);
    const { name, agency } = await chats.agencyOf(chatId, body.agency);
    const archives = await agency.rollback(chatId, body.checkpointId);
    return c.json({ chatId, agency: name, checkpointId: body.checkpointId, archives });
  });

  return app;
}
