/**
 * Searching chats for `GET /chats`: by text (`q`, in a chat's title, id and every message), by
 * agent (`agent`, a talker in one of its threads), by user (`user`, the chat's owner) and by date
 * (`since`/`until`, the chat was active in that window). Works on every thread store through the
 * `ThreadStore` contract (`listThreads`, `readItems`).
 * @module
 */
import { z } from 'zod';
import type { ThreadRecord, ThreadStore } from '../../stores/types.js';
import { parseThreadId } from '../../threads/threadId.js';
import type { OwnerRecords } from '../ownership/owners.js';

/** An ISO date or time (`2026-11-26`, `2026-11-26T09:00:00Z`), parsed to epoch milliseconds. */
const isoTime = (param: string) =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/,
      `expected "${param}" as an ISO date or time, e.g. 2026-11-26 or 2026-11-26T09:00:00Z`,
    )
    .transform((value, ctx) => {
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${param}" is not a real date (${value}); use e.g. 2026-11-26T09:00:00Z`,
        });
        return z.NEVER;
      }
      return ms;
    });

/** The search fields of `GET /chats`' query string. */
export const chatSearchQuery = z.object({
  q: z.string().max(500, 'expected "q" of at most 500 characters').optional(),
  agent: z.string().min(1, 'expected "agent" as an agent name').max(200).optional(),
  user: z.string().min(1, 'expected "user" as a user id').max(200).optional(),
  since: isoTime('since').optional(),
  until: isoTime('until').optional(),
});

/** What {@link chatSearchQuery} gives. */
export type ChatSearch = z.output<typeof chatSearchQuery>;

/** The text of a stored message's content (a string, or its text parts joined). */
export function contentText(content: unknown): string {
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

/** The searchable text of one stored item: message text, tool call arguments and outputs. */
function itemText(item: unknown): string {
  const raw = item as { content?: unknown; arguments?: unknown; output?: unknown };
  const parts = [contentText(raw.content)];
  if (typeof raw.arguments === 'string') parts.push(raw.arguments);
  if (typeof raw.output === 'string') parts.push(raw.output);
  else if (raw.output && typeof raw.output === 'object') parts.push(contentText([raw.output]));
  return parts.join(' ');
}

/** The agents talking in a chat's threads (from the thread ids), lower-cased. */
function agentsOf(threads: readonly ThreadRecord[]): Set<string> {
  const agents = new Set<string>();
  for (const thread of threads) {
    const parsed = parseThreadId(thread.threadId);
    if (!parsed) continue;
    for (const name of parsed.participants) if (name !== null) agents.add(name.toLowerCase());
  }
  return agents;
}

/** Whether any message of the chat's threads holds `needle` (lower-case). */
async function holdsText(
  store: Pick<ThreadStore, 'readItems'>,
  threads: readonly ThreadRecord[],
  needle: string,
): Promise<boolean> {
  for (const thread of threads) {
    for (const stored of await store.readItems(thread.threadId)) {
      if (itemText(stored.item).toLowerCase().includes(needle)) return true;
    }
  }
  return false;
}

/** One chat as the search sees it. */
export interface SearchedChat {
  chatId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  threads: readonly ThreadRecord[];
}

/** Where the search reads what it needs. */
export interface SearchSources {
  store: Pick<ThreadStore, 'readItems'>;
  owners: Pick<OwnerRecords, 'ownerOf'>;
}

/**
 * Whether a chat matches every given filter. Cheap checks (dates, agents, title and id) come
 * first; the owner and the messages are read only when still needed.
 */
export async function matchesSearch(
  chat: SearchedChat,
  search: ChatSearch,
  sources: SearchSources,
): Promise<boolean> {
  if (search.since !== undefined && Date.parse(chat.updatedAt) < search.since) return false;
  if (search.until !== undefined && Date.parse(chat.createdAt) > search.until) return false;
  if (search.agent && !agentsOf(chat.threads).has(search.agent.toLowerCase())) return false;
  if (search.user && (await sources.owners.ownerOf('chat', chat.chatId)) !== search.user)
    return false;
  const needle = search.q?.trim().toLowerCase();
  if (!needle) return true;
  if (`${chat.title} ${chat.chatId}`.toLowerCase().includes(needle)) return true;
  return holdsText(sources.store, chat.threads, needle);
}
