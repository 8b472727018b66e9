/**
 * `GET /chats?agency=NAME`: the chats in an agency's store, newest first, so that a UI can
 * continue one, each titled by its first user message, paged newest first (`cursor`, `nextCursor`)
 * and searched (`q` in titles, ids and messages; `agent`, `user`, `since`, `until`: see
 * `chatSearch.ts`); `DELETE /chats/:chatId?agency=NAME` deletes one. Ensemble runs (which keep
 * their turns in the same store) are left out. A signed-in user who is not an admin is listed
 * their own chats only, before paging, so that every page is full.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isRunThread } from '../../ensembles/savedRuns.js';
import { isArchiveThreadId } from '../../stores/common.js';
import type { ThreadRecord, ThreadStore } from '../../stores/types.js';
import { currentPrincipal } from '../auth/principal.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { readQuery } from '../errors.js';
import { OwnerRecords } from '../ownership/owners.js';
import { chatSearchQuery, contentText, matchesSearch, type ChatSearch } from './chatSearch.js';

const listQuery = chatSearchQuery.extend({
  agency: z.string().min(1, 'expected an agency name (GET /agencies lists them)'),
  limit: z.coerce.number().int().positive().max(1000).optional(),
  cursor: z.string().min(1).optional(),
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
    if (isRunThread(record.metadata)) chat.workflow = true;
    chats.set(record.chatId, chat);
  }
  return (
    [...chats.values()]
      .filter((chat) => !chat.workflow)
      .map(({ workflow: _workflow, ...chat }) => chat)
      // The order `after` pages through (chats saved in the same millisecond were otherwise
      // skipped or repeated across a page boundary).
      .sort((a, b) => (comesBefore(a, b) ? -1 : comesBefore(b, a) ? 1 : 0))
  );
}

/** A chat's title: the first user message of its user threads, cut to 80 characters. */
export async function chatTitle(
  store: Pick<ThreadStore, 'listThreads' | 'readItems'>,
  chatId: string,
  threads?: readonly ThreadRecord[],
): Promise<string> {
  const users = (threads ?? (await store.listThreads({ chatId })))
    .filter((t) => t.threadId.endsWith('__USER'))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const thread of users) {
    for (const item of await store.readItems(thread.threadId, { limit: 20 })) {
      const raw = item.item as { role?: unknown; content?: unknown };
      if (raw.role !== 'user') continue;
      const text = contentText(raw.content).replace(/\s+/g, ' ').trim();
      if (text) return text.length > 80 ? `${text.slice(0, 79)}…` : text;
    }
  }
  return '';
}

/** Where a chat stands in the list. */
type ChatPosition = Pick<ChatSummary, 'updatedAt' | 'chatId'>;

/** Whether `a` is listed before `b`: newest first, ties by chat id. */
function comesBefore(a: ChatPosition, b: ChatPosition): boolean {
  return a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.chatId < b.chatId);
}

/** The cursor of a listed chat: where the next page starts (after it, newest first). */
function cursorOf(chat: ChatSummary): string {
  return Buffer.from(`${chat.updatedAt}|${chat.chatId}`).toString('base64url');
}

/** Whether `chat` comes after the cursor's chat in the newest-first order. */
function after(cursor: string, chat: ChatSummary): boolean {
  const [updatedAt = '', chatId = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  return comesBefore({ updatedAt, chatId }, chat);
}

/** The search of a request: its filters, and a signed-in non-admin user's own chats only. */
function searchOf(query: ChatSearch): ChatSearch {
  const principal = currentPrincipal();
  if (!principal || principal.admin || query.user !== undefined) return query;
  return { ...query, user: principal.userId };
}

/** Thread records grouped by chat id. */
function byChat(records: readonly ThreadRecord[]): Map<string, ThreadRecord[]> {
  const groups = new Map<string, ThreadRecord[]>();
  for (const record of records) {
    if (record.chatId === null) continue;
    const group = groups.get(record.chatId) ?? [];
    group.push(record);
    groups.set(record.chatId, group);
  }
  return groups;
}

/**
 * `GET /chats` (paged with `cursor`, searched with `q`, `agent`, `user`, `since`, `until`) and
 * `DELETE /chats/:chatId`.
 */
export function chatListRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const owners = context.owners ?? new OwnerRecords(context.registry.runs.store);
  app.get('/chats', async (c) => {
    const query = readQuery(c, listQuery);
    const agency = agencyNamed(context, query.agency);
    const store = agency.threads.store;
    const search = searchOf(query);
    const records = await store.listThreads();
    const threadsOf = byChat(records);
    let chats = summarizeChats(records);
    if (query.cursor) chats = chats.filter((chat) => after(query.cursor!, chat));
    const limit = query.limit ?? 100;
    const page: Array<ChatSummary & { title: string }> = [];
    let more = false;
    for (const chat of chats) {
      if (page.length === limit) {
        more = true;
        break;
      }
      const threads = threadsOf.get(chat.chatId) ?? [];
      const title = await chatTitle(store, chat.chatId, threads);
      const searched = { ...chat, title, threads };
      if (!(await matchesSearch(searched, search, { store, owners }))) continue;
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
