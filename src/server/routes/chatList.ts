/**
 * `GET /chats?agency=NAME`: the chats in an agency's store, newest first, so that a UI can
 * continue one, each titled by its first user message, paged newest first (`cursor`, `nextCursor`)
 * and searched (`q`, in titles and ids); `DELETE /chats/:chatId?agency=NAME` deletes one. Ensemble runs (which keep their turns in the same store) are left out.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isArchiveThreadId } from '../../stores/common.js';
import type { ThreadRecord, ThreadStore } from '../../stores/types.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { readQuery } from '../errors.js';

const listQuery = z.object({
  agency: z.string().min(1, 'expected an agency name (GET /agencies lists them)'),
  limit: z.coerce.number().int().positive().max(1000).optional(),
  cursor: z.string().min(1).optional(),
  q: z.string().optional(),
});

const deleteQuery = z.object({
  agency: z.string().min(1, 'expected an agency name (GET /agencies lists them)'),
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

/** The text of a stored message's content (a string, or its text parts joined). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

/** A chat's title: the first user message of its user threads, cut to 80 characters. */
export async function chatTitle(
  store: Pick<ThreadStore, 'listThreads' | 'readItems'>,
  chatId: string,
): Promise<string> {
  const threads = (await store.listThreads({ chatId }))
    .filter((t) => t.threadId.endsWith('__USER'))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const thread of threads) {
    for (const item of await store.readItems(thread.threadId, { limit: 20 })) {
      const raw = item.item as { role?: unknown; content?: unknown };
      if (raw.role !== 'user') continue;
      const text = contentText(raw.content).replace(/\s+/g, ' ').trim();
      if (text) return text.length > 80 ? `${text.slice(0, 79)}…` : text;
    }
  }
  return '';
}

/** The cursor of a listed chat: where the next page starts (after it, newest first). */
function cursorOf(chat: ChatSummary): string {
  return Buffer.from(`${chat.updatedAt}|${chat.chatId}`).toString('base64url');
}

/** Whether `chat` comes after the cursor's chat in the newest-first order. */
function after(cursor: string, chat: ChatSummary): boolean {
  const [updatedAt = '', chatId = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  return chat.updatedAt < updatedAt || (chat.updatedAt === updatedAt && chat.chatId > chatId);
}

/** `GET /chats` (paged with `cursor`, searched with `q`) and `DELETE /chats/:chatId`. */
export function chatListRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get('/chats', async (c) => {
    const query = readQuery(c, listQuery);
    const agency = agencyNamed(context, query.agency);
    const store = agency.threads.store;
    let chats = summarizeChats(await store.listThreads());
    if (query.cursor) chats = chats.filter((chat) => after(query.cursor!, chat));
    const limit = query.limit ?? 100;
    const needle = query.q?.toLowerCase();
    const page: Array<ChatSummary & { title: string }> = [];
    let more = false;
    for (const chat of chats) {
      if (page.length === limit) {
        more = true;
        break;
      }
      const title = await chatTitle(store, chat.chatId);
      if (needle && !`${title} ${chat.chatId}`.toLowerCase().includes(needle)) continue;
      page.push({ ...chat, title });
    }
    const last = page[page.length - 1];
    return c.json({
      agency: query.agency,
      chats: page,
      nextCursor: more && last ? cursorOf(last) : null,
    });
  });
  app.delete('/chats/:chatId', async (c) => {
    const query = readQuery(c, deleteQuery);
    const store = agencyNamed(context, query.agency).threads.store;
    const chatId = c.req.param('chatId');
    const threads = await store.listThreads({ chatId });
    for (const thread of threads) await store.deleteThread(thread.threadId);
    return c.json({ chatId, deleted: threads.length });
  });
  return app;
}
