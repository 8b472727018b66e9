/**
 * Which stored items are a chat's own history: its live threads, and the items they inherited
 * from the threads they were forked from (up to the fork point). Used so that recall and
 * summaries respect forks and rollbacks.
 * @module
 */
import type { ThreadStore } from '../stores/types.js';
import { liveThreads } from '../threads/chatHistory.js';

/** A chat's lineage: for each thread whose items it sees, how many of them (Infinity: all). */
export interface Lineage {
  /** threadId → number of leading items visible to the chat. */
  visible: Map<string, number>;
  /** The chat and the chats it was forked from. */
  chatIds: Set<string>;
}

/** The ancestors of one thread: `[threadId, visible items]`, the thread itself first. */
export async function threadLineage(
  store: ThreadStore,
  threadId: string,
): Promise<Array<[string, number, string | null]>> {
  const chain: Array<[string, number, string | null]> = [];
  let current: string | null = threadId;
  let limit = Infinity;
  const seen = new Set<string>();
  while (current && !seen.has(current)) {
    seen.add(current);
    const record = await store.getThread(current);
    chain.push([current, limit, record?.chatId ?? null]);
    if (!record?.forkedFrom) break;
    limit = Math.min(limit, record.forkedFrom.version);
    current = record.forkedFrom.threadId;
  }
  return chain;
}

/** The lineage of a chat's live threads. */
export async function chatLineage(store: ThreadStore, chatId: string): Promise<Lineage> {
  const visible = new Map<string, number>();
  const chatIds = new Set<string>([chatId]);
  for (const record of await liveThreads(store, chatId)) {
    for (const [threadId, limit, owner] of await threadLineage(store, record.threadId)) {
      visible.set(threadId, Math.max(visible.get(threadId) ?? 0, limit));
      if (owner) chatIds.add(owner);
    }
  }
  return { visible, chatIds };
}
