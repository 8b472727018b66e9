/**
 * The service side of {@link ConversationsStore}: creating conversations, adding items 20 at a
 * time (taking them back when a later chunk fails), copying items into a new conversation for
 * forks and resets, and checking on reads that a thread's items are still in its conversation.
 * @module
 */
import type { ConversationsHttp } from './conversationsHttp.js';
import { ConversationsHttpError } from './conversationsHttp.js';
import { toApiItem, type ApiItem } from './conversationsItems.js';
import type { ThreadItem } from './item.js';

/** The link of one thread to its conversation: the service's id of each of its items, in order. */
export interface Link {
  conversationId: string;
  itemIds: string[];
}

/** The API's item limit per create request. */
export const ITEMS_PER_REQUEST = 20;
/** The API's page size limit when listing items. */
const PAGE = 100;

/** Conversation-level operations over one {@link ConversationsHttp}. */
export class ConversationsService {
  constructor(readonly http: ConversationsHttp) {}

  /** A new, empty conversation whose metadata names the thread and chat. */
  async create(threadId: string, chatId: string | null): Promise<string> {
    const metadata = {
      colloquy_thread: threadId.slice(0, 512),
      colloquy_chat: (chatId ?? '').slice(0, 512),
    };
    const created = await this.http.request<{ id: string }>('POST', '/conversations', {
      metadata,
    });
    return created.id;
  }

  /** Adds items 20 at a time; returns the service's ids, in order. */
  async addItems(conversationId: string, items: ThreadItem[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < items.length; i += ITEMS_PER_REQUEST) {
      const chunk = items.slice(i, i + ITEMS_PER_REQUEST).map(toApiItem);
      const added = await this.http
        .request<{ data: ApiItem[] }>(
          'POST',
          `/conversations/${encodeURIComponent(conversationId)}/items`,
          { items: chunk },
        )
        .catch(async (error: unknown) => {
          await this.undo(conversationId, conversationId, ids);
          throw error;
        });
      ids.push(...added.data.map((a) => String(a.id)));
    }
    return ids;
  }

  /** A new conversation holding copies of `items` (none when there are no items). */
  async copy(threadId: string, chatId: string | null, items: ThreadItem[]): Promise<Link | null> {
    if (items.length === 0) return null;
    const conversationId = await this.create(threadId, chatId);
    try {
      return { conversationId, itemIds: await this.addItems(conversationId, items) };
    } catch (error) {
      await this.deleteConversation(conversationId);
      throw error;
    }
  }

  /** Takes back a failed append: its items from a kept conversation, or a new conversation whole. */
  async undo(kept: string | null, conversationId: string, itemIds: string[]): Promise<void> {
    if (kept === null) return this.deleteConversation(conversationId);
    for (const id of itemIds.splice(0))
      await this.http
        .request(
          'DELETE',
          `/conversations/${encodeURIComponent(kept)}/items/${encodeURIComponent(id)}`,
        )
        .catch(() => undefined); // best effort: a leftover is skipped by reads (see verify)
  }

  /** Deletes a conversation; one that is already gone counts as deleted. */
  async deleteConversation(conversationId: string): Promise<void> {
    try {
      await this.http.request('DELETE', `/conversations/${encodeURIComponent(conversationId)}`);
    } catch (error) {
      if (!(error instanceof ConversationsHttpError && error.status === 404)) throw error;
    }
  }

  /** Lists up to `want` items after `after`, oldest first, page by page. */
  async list(conversationId: string, after: string | undefined, want: number): Promise<ApiItem[]> {
    const out: ApiItem[] = [];
    let cursor = after;
    for (;;) {
      const limit = String(Math.min(PAGE, Math.max(1, want - out.length)));
      const page = await this.http.request<{
        data: ApiItem[];
        has_more: boolean;
        last_id?: string;
      }>('GET', `/conversations/${encodeURIComponent(conversationId)}/items`, undefined, {
        order: 'asc',
        limit,
        ...(cursor ? { after: cursor } : {}),
      });
      out.push(...page.data);
      if (!page.has_more || page.data.length === 0 || out.length >= want) return out;
      cursor = String(page.data.at(-1)!.id);
    }
  }

  /** Checks that the service still holds the thread's items `[start, end)`, in order. */
  async verify(threadId: string, link: Link, start: number, end: number): Promise<void> {
    const expected = link.itemIds.slice(start, end);
    let listed: ApiItem[];
    try {
      listed = await this.list(
        link.conversationId,
        start > 0 ? link.itemIds[start - 1] : undefined,
        expected.length,
      );
    } catch (error) {
      if (error instanceof ConversationsHttpError && error.status === 404)
        throw new ConversationsHttpError(
          `Thread "${threadId}": its conversation ${link.conversationId} (or an item of it) no longer exists at ${this.http.baseURL}. It was deleted outside Colloquy; delete the thread, or reset it to the items still there.`,
          404,
          false,
        );
      throw error;
    }
    // Items someone else added (or an interrupted append left) in between are skipped.
    let found = 0;
    for (const item of listed) if (item.id === expected[found]) found += 1;
    if (found < expected.length && listed.length >= expected.length) {
      const more = await this.list(link.conversationId, String(listed.at(-1)!.id), Infinity);
      for (const item of more) if (item.id === expected[found]) found += 1;
    }
    if (found < expected.length)
      throw new ConversationsHttpError(
        `Thread "${threadId}": conversation ${link.conversationId} no longer holds item ${expected[found]} (position ${start + found}). It was deleted outside Colloquy; reset the thread to ${start + found} items to continue.`,
        404,
        false,
      );
  }
}
