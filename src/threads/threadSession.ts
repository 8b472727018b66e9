/**
 * Any {@link ThreadStore} as the `@openai/agents-core` `Session`, so that a plain
 * `Runner.run(agent, input, { session })` keeps its history in SQLite, Redis, Postgres or any
 * other Colloquy store. One session is one thread whose id is the session id.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AgentInputItem, Session } from '@openai/agents-core';
import { ConfigError, ConflictError } from '../errors.js';
import type { ThreadStore } from '../stores/types.js';
import type { ThreadItem } from '../stores/item.js';

/** Options of {@link ThreadSession}. */
export interface ThreadSessionOptions {
  /** Where the history lives. */
  store: ThreadStore;
  /** The session id, used as the thread id. */
  sessionId: string;
  /** Chat to file the thread under when it is created (default: none). */
  chatId?: string | null;
  /** How often an append is tried when other writers keep appending first (default 5). */
  maxAppendAttempts?: number;
  /**
   * Keep what {@link ThreadSession.popItem} cuts in the archive thread the store's `reset` leaves
   * behind (default true). With `false` the archive is deleted right after the pop.
   */
  keepPoppedItems?: boolean;
}

/**
 * The SDK's `Session` over a Colloquy thread store.
 *
 * - `addItems` appends with the store's optimistic versions, re-reading the version and retrying
 *   when another writer appended first.
 * - `getItems(limit)` reads the newest `limit` items, oldest first.
 * - `popItem` cuts the last item with `reset(thread, version - 1)`: stores are append-only, so the
 *   cut item (with the history before it) stays readable under the archive thread the reset
 *   returns, unless `keepPoppedItems` is false.
 * - `clearSession` deletes the thread (archives left by pops are not deleted).
 *
 * @example
 * ```ts
 * import { Runner } from '@openai/agents-core';
 * import { SqliteStore, ThreadSession } from 'colloquy';
 *
 * const session = new ThreadSession({ store: new SqliteStore({ path: 'chat.db' }), sessionId: 'user-42' });
 * await new Runner().run(agent, 'Hello', { session });
 * await new Runner().run(agent, 'And again', { session }); // the model sees the first turn
 * ```
 */
export class ThreadSession implements Session {
  readonly store: ThreadStore;
  readonly sessionId: string;
  readonly #chatId: string | null;
  readonly #maxAttempts: number;
  readonly #keepPopped: boolean;

  constructor(options: ThreadSessionOptions) {
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new ConfigError(
        `ThreadSession: sessionId is ${JSON.stringify(options.sessionId)}; pass a non-empty string (it becomes the thread id).`,
      );
    }
    const attempts = options.maxAppendAttempts ?? 5;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new ConfigError(
        `ThreadSession: maxAppendAttempts is ${String(attempts)}; pass a whole number ≥ 1.`,
      );
    }
    this.store = options.store;
    this.sessionId = options.sessionId;
    this.#chatId = options.chatId ?? null;
    this.#maxAttempts = attempts;
    this.#keepPopped = options.keepPoppedItems ?? true;
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
      throw new ConfigError(
        `ThreadSession "${this.sessionId}": getItems(${String(limit)}); pass a whole number ≥ 0 or no limit.`,
      );
    }
    if (limit === 0) return [];
    const items = await this.store.readItems(
      this.sessionId,
      limit === undefined ? {} : { newest: limit },
    );
    return items.map((entry) => entry.item);
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const entries: ThreadItem[] = items.map((item) => ({ id: `item_${randomUUID()}`, item }));
    for (let attempt = 1; ; attempt++) {
      const version = (await this.store.getThread(this.sessionId))?.version ?? 0;
      try {
        await this.store.append(this.sessionId, entries, {
          expectedVersion: version,
          chatId: this.#chatId,
        });
        return;
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= this.#maxAttempts) throw error;
      }
    }
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const record = await this.store.getThread(this.sessionId);
    if (!record || record.version === 0) return undefined;
    const [last] = await this.store.readItems(this.sessionId, {
      from: record.version - 1,
      limit: 1,
    });
    const archive = await this.store.rollback(this.sessionId, record.version - 1);
    if (archive && !this.#keepPopped) await this.store.deleteThread(archive);
    return last?.item;
  }

  async clearSession(): Promise<void> {
    await this.store.deleteThread(this.sessionId);
  }
}
