/**
 * The journal that makes a retried agency call idempotent. Before a worker runs a call it records,
 * under the chat's lease, which job works on the chat and every live thread's version. A retry of
 * the same job (its worker died mid-call) cuts the chat back to those versions, dropping what the
 * dead attempt half-wrote, and runs the call again: the threads end exactly as after one run. A
 * different job finds the entry and waits until that job is finished.
 * @module
 */
import type { ChainableCommander, Redis } from 'ioredis';
import type { ThreadStore } from '../stores/types.js';
import { liveThreads } from '../threads/chatHistory.js';

/** threadId → version, for every live thread of a chat. */
export type ChatSnapshot = Record<string, number>;

/** The journal entry of one chat. */
export interface JournalEntry {
  job: string;
  snapshot: ChatSnapshot;
}

/** Every live thread's version in `chatId`. */
export async function snapshotChat(store: ThreadStore, chatId: string): Promise<ChatSnapshot> {
  const snapshot: ChatSnapshot = {};
  for (const record of await liveThreads(store, chatId)) snapshot[record.threadId] = record.version;
  return snapshot;
}

/**
 * Cuts `chatId` back to `snapshot`: threads created since are deleted, longer ones are reset (and
 * the archive a reset leaves is deleted: its items are the dead attempt's). Returns how many items
 * were dropped.
 */
export async function restoreChat(
  store: ThreadStore,
  chatId: string,
  snapshot: ChatSnapshot,
): Promise<number> {
  let dropped = 0;
  for (const record of await liveThreads(store, chatId)) {
    const version = snapshot[record.threadId];
    if (version === undefined) {
      dropped += record.version;
      await store.deleteThread(record.threadId);
    } else if (record.version > version) {
      dropped += record.version - version;
      const archive = await store.reset(record.threadId, version);
      if (archive) await store.deleteThread(archive);
    }
  }
  return dropped;
}

/** Deletes KEYS[1] if it holds ARGV[1] (the entry's `"job":"<id>",` part). */
const END_SCRIPT = `local v = redis.call('GET', KEYS[1])
if v and string.find(v, ARGV[1], 1, true) then redis.call('DEL', KEYS[1]) end
return 1`;

/** Reads and writes journal entries in the queue's Redis. */
export class ChatJournal {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** The entry under `key`, or null. */
  async read(key: string): Promise<JournalEntry | null> {
    const text = await this.#redis.get(key);
    return text === null ? null : (JSON.parse(text) as JournalEntry);
  }

  /** Records that `job` starts working on the chat, with the chat's threads before it. */
  async begin(key: string, entry: JournalEntry): Promise<void> {
    // Kept for a week at most: a forgotten entry must not block a chat forever (and an entry of
    // a finished job is ignored anyway).
    await this.#redis.set(key, JSON.stringify(entry), 'EX', 7 * 86_400);
  }

  /**
   * Removes the entry if it is `job`'s, in one transaction with what `also` adds (the call's
   * outcome and last event).
   */
  async end(
    key: string,
    job: string,
    also: (multi: ChainableCommander) => ChainableCommander = (multi) => multi,
  ): Promise<void> {
    const mark = `"job":${JSON.stringify(job)},`;
    const results = await also(this.#redis.multi()).eval(END_SCRIPT, 1, key, mark).exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }
}
