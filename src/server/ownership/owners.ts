/**
 * Who owns a chat or a run. Each owner is a one-item thread `colloquy-owner:<kind>:<id>` (no chat)
 * in a thread store: claiming appends at expected version 0, so the first claimer wins atomically
 * on every backend (memory, JSON files, SQLite, Redis, Postgres) through the one `ThreadStore`
 * contract they all keep, with no new table or schema migration, and every server and worker
 * sharing the store sees the same owners.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import { ConflictError } from '../../errors.js';
import type { ThreadStore } from '../../stores/types.js';

/** What an owner is recorded for. */
export type OwnedKind = 'chat' | 'run';

/** The prefix of owner record thread ids. */
export const OWNER_THREAD_PREFIX = 'colloquy-owner:';

/** Whether a thread id is an owner record (lists of threads leave them out). */
export function isOwnerThreadId(threadId: string): boolean {
  return threadId.startsWith(OWNER_THREAD_PREFIX);
}

/** Owner records in a thread store. */
export class OwnerRecords {
  readonly #store: ThreadStore;
  readonly #cache = new Map<string, string>();

  constructor(store: ThreadStore) {
    this.#store = store;
  }

  #threadId(kind: OwnedKind, id: string): string {
    return `${OWNER_THREAD_PREFIX}${kind}:${id}`;
  }

  /** The owner of `id`, or `null` when nobody claimed it. */
  async ownerOf(kind: OwnedKind, id: string): Promise<string | null> {
    const threadId = this.#threadId(kind, id);
    const cached = this.#cache.get(threadId);
    if (cached !== undefined) return cached;
    const [first] = await this.#store.readItems(threadId, { limit: 1 });
    const owner = first ? ownerIn(first.item) : null;
    if (owner !== null) this.#remember(threadId, owner);
    return owner;
  }

  /** Records `userId` as the owner unless someone was first; returns the owner either way. */
  async claim(kind: OwnedKind, id: string, userId: string): Promise<string> {
    const threadId = this.#threadId(kind, id);
    const item = { role: 'system', content: userId } as AgentInputItem;
    try {
      await this.#store.append(threadId, [{ id: 'owner', item }], {
        expectedVersion: 0,
        chatId: null,
      });
      this.#remember(threadId, userId);
      return userId;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const owner = await this.ownerOf(kind, id);
      if (owner === null) throw error;
      return owner;
    }
  }

  #remember(threadId: string, owner: string): void {
    // Owners never change, so a bounded cache is always right.
    if (this.#cache.size >= 10_000) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(threadId, owner);
  }
}

function ownerIn(item: AgentInputItem): string | null {
  const content = (item as { content?: unknown }).content;
  return typeof content === 'string' && content !== '' ? content : null;
}
