/**
 * Which agency a chat belongs to, for the chat routes (`/chats/:chatId/...`, `/threads/:id`):
 * chats the server ran are remembered; others are found by asking each agency's store.
 * @module
 */
import type { Agency } from '../agency/agency.js';
import type { ThreadRecord, ThreadStore } from '../stores/types.js';
import { notFound } from './errors.js';

/**
 * Chat → agency entries are remembered in two generations of this many: the newest 10,000 to
 * 20,000 chats are known, older ones are found by asking the stores.
 */
const GENERATION = 10_000;

/** Finds the agency (and so the store) of a chat or a thread. */
export class ChatDirectory {
  readonly #agencies: ReadonlyMap<string, Agency>;
  readonly #extraStores: readonly ThreadStore[];
  /** The newest chats, then the generation before (dropped whole when the newest is full). */
  #owners = new Map<string, string>();
  #previous = new Map<string, string>();

  /** `extraStores`: stores searched for threads besides the agencies' (e.g. the ensemble runs' store). */
  constructor(agencies: ReadonlyMap<string, Agency>, extraStores: readonly ThreadStore[] = []) {
    this.#agencies = agencies;
    this.#extraStores = extraStores;
  }

  /**
   * Remembers that `agency` ran (or forked into) `chatId`: one `Map.set` a request. (Forgetting
   * the oldest entry of one map at each new chat cost 11-19 µs a request past 10,000 chats: a
   * Map's deleted slots stay until it is rebuilt, and `keys().next()` walks past them all.)
   */
  remember(chatId: string, agency: string): void {
    if (this.#owners.size >= GENERATION && !this.#owners.has(chatId)) {
      this.#previous = this.#owners;
      this.#owners = new Map();
    }
    this.#owners.set(chatId, agency);
  }

  /** The agency of a chat: `preferred` if given, else the one that ran it, else the first whose store has it. */
  async agencyOf(chatId: string, preferred?: string): Promise<{ name: string; agency: Agency }> {
    if (preferred !== undefined) {
      const agency = this.#agencies.get(preferred);
      if (!agency)
        throw notFound(
          'AGENCY_NOT_FOUND',
          `Agency "${preferred}"`,
          [...this.#agencies.keys()],
          'Check the agency name (GET /agencies).',
        );
      return { name: preferred, agency };
    }
    const known = this.#owners.get(chatId) ?? this.#previous.get(chatId);
    const owner = known === undefined ? undefined : this.#agencies.get(known);
    if (known !== undefined && owner) return { name: known, agency: owner };
    for (const [name, agency] of this.#agencies) {
      if ((await agency.threads.store.listThreads({ chatId })).length > 0) return { name, agency };
    }
    throw notFound(
      'CHAT_NOT_FOUND',
      `Chat "${chatId}"`,
      [],
      'No served agency has threads in that chat: check the chat id (it is in every response as chatId), or run a message in it first.',
    );
  }

  /** A thread by id from the first store that has it. */
  async findThread(threadId: string): Promise<{ record: ThreadRecord; store: ThreadStore } | null> {
    for (const store of this.stores()) {
      const record = await store.getThread(threadId);
      if (record) return { record, store };
    }
    return null;
  }

  /** Every distinct store of the served agencies, then the extra stores. */
  stores(): ThreadStore[] {
    return [
      ...new Set([
        ...[...this.#agencies.values()].map((agency) => agency.threads.store),
        ...this.#extraStores,
      ]),
    ];
  }
}
