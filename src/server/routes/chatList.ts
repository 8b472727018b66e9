/**
 * `GET /chats?agency=NAME`: the chats in an agency's store, newest first, so that a UI can
 * continue one. Ensemble runs (which keep their turns in the same store) are left out.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isArchiveThreadId } from '../../stores/common.js';
import type { ThreadRecord } from '../../stores/types.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { readQuery } from '../errors.js';

const listQuery = z.object({
  agency: z.string().min(1, 'expected an agency name (GET /agencies lists them)'),
  limit: z.coerce.number().int().positive().max(1000).optional(),
});

/** One chat as `GET /chats` lists it. */
export interface ChatSummary {
  chatId: string;
  threads: number;
  items: number;
  createdAt: string;
  updatedAt: string;
}

/** Groups thread records into chat summaries, newest first; chats holding a workflow are skipped. */
export function summarizeChats(records: readonly ThreadRecord[]): ChatSummary[] {
  const chats = new Map<string, ChatSummary & { workflow: boolean }>();
  for (const record of records) {
    if (record.chatId === null || isArchiveThreadId(record.threadId)) continue;
    const chat = chats.get(record.chatId) ?? {
      chatId: record.chatId,
      threads: 0,
      items: 0,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      workflow: false,
    };
    chat.threads += 1;
    chat.items += record.version;
    if (record.createdAt < chat.createdAt) chat.createdAt = record.createdAt;
    if (record.updatedAt > chat.updatedAt) chat.updatedAt = record.updatedAt;
    if (record.metadata.kind === 'workflow') chat.workflow = true;
    chats.set(record.chatId, chat);
  }
  return [...chats.values()]
    .filter((chat) => !chat.workflow)
    .map(({ workflow: _workflow, ...chat }) => chat)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** `GET /chats`. */
export function chatListRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get('/chats', async (c) => {
    const query = readQuery(c, listQuery);
    const agency = agencyNamed(context, query.agency);
    const chats = summarizeChats(await agency.threads.store.listThreads());
    return c.json({ agency: query.agency, chats: chats.slice(0, query.limit ?? 100) });
  });
  return app;
}
