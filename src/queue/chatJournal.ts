/**
 * The journal that makes a retried agency call idempotent. Before a worker runs a call it records,
 * under the chat's lease, which job works on the chat and every live thread's version. A retry of
 * the same job (its worker died mid-call) cuts the chat back to those versions, dropping what the
 * dead attempt half-wrote, and runs the call again: the threads end exactly as after one run. A
 * different job finds the entry and waits until that job is finished.
 * @module
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { isArchiveThreadId } from '../stores/common.js';
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

/** The live threads' part of a chat's thread versions (archives left out, as in {@link snapshotChat}). */
export function liveSnapshot(versions: Record<string, number>): ChatSnapshot {
  const snapshot: ChatSnapshot = {};
  for (const [threadId, version] of Object.entries(versions)) {
    if (!isArchiveThreadId(threadId)) snapshot[threadId] = version;
  }
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
      const archive = await store.rollback(record.threadId, version);
      if (archive) await store.deleteThread(archive);
    }
  }
  return dropped;
}

/** Deletes KEYS[1] if it holds ARGV[1] (the entry's `"job":"<id>",` part). */
const END_SCRIPT = `local v = redis.call('GET', KEYS[1])
if v and string.find(v, ARGV[1], 1, true) then redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * Reads the call's outcome (KEYS[1]) and cancellation (KEYS[2]); when it has neither, reads the
 * chat's entry (KEYS[3]) and, when there is none, sets it to ARGV[1] for ARGV[2] seconds.
 */
const ENTER_SCRIPT = `local done = redis.call('GET', KEYS[1])
local cancelled = redis.call('GET', KEYS[2])
if done or cancelled then return {done, cancelled, false} end
local entry = redis.call('GET', KEYS[3])
if not entry then redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[2]) end
return {false, false, entry}`;

/** A journal entry is kept a week at most: a forgotten one must not block a chat forever. */
const ENTRY_SECONDS = 7 * 86_400;

/** What {@link ChatJournal.enter} found. */
export interface JournalEnter {
  /** The call's stored outcome (JSON): it finished before; nothing was recorded. */
  done: string | null;
  /** The call's cancellation reason: nothing was recorded. */
  cancelled: string | null;
  /** The entry already there (this job's, after a worker died, or another job's): kept as is. */
  current: JournalEntry | null;
}

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
    await this.#redis.set(key, JSON.stringify(entry), 'EX', ENTRY_SECONDS);
  }

  /**
   * In one round trip: the call's outcome and cancellation (`done` and `cancelled` keys); when
   * it has neither, the chat's entry under `key`, and when there is none, `entry` recorded there
   * (as {@link begin}). The caller holds the chat's lease.
   */
  async enter(
    keys: { journal: string; done: string; cancelled: string },
    entry: JournalEntry,
  ): Promise<JournalEnter> {
    const [done, cancelled, current] = (await this.#redis.eval(
      ENTER_SCRIPT,
      3,
      keys.done,
      keys.cancelled,
      keys.journal,
      JSON.stringify(entry),
      ENTRY_SECONDS,
    )) as [string | null, string | null, string | null];
    return {
      done: done ?? null,
      cancelled: cancelled ?? null,
      current: current ? (JSON.parse(current) as JournalEntry) : null,
    };
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
