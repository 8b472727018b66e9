/**
 * The step journal of one agency call: every finished model call, tool call and nested
 * send_message of the call is appended, as it finishes, to a thread of its own in the thread
 * store (`journal~<callId>`, outside every chat), so it survives the process and is shared by
 * every worker on Redis or Postgres. A retry of the call (the same call id, after its worker
 * died) reads the journal back and replays the finished steps instead of running them again:
 * model calls are answered from it, tools return their journaled output, and the call goes on
 * live from the first unfinished step.
 *
 * Writes go through the store's `append`, so a worker that lost the chat's lease (see
 * `withFence`) cannot add to the journal after another worker took the call over.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { ThreadStore } from '../../stores/types.js';
import { currentScope, withScope } from './callScope.js';
import { JOURNAL_ITEM_TYPE, parseJournalEntry, type JournalEntry } from './schema.js';

/** The journal thread of a call: `~` never occurs in chat thread ids, so none can collide. */
export function journalThreadId(callId: string): string {
  return `journal~${callId}`;
}

/** An entry as `record` takes it: `Omit` distributed over the union, so each kind keeps its own fields. */
export type NewEntry = JournalEntry extends infer E
  ? E extends JournalEntry
    ? Omit<E, 'type' | 'schemaVersion' | 'at'>
    : never
  : never;

/** Counts of what a journal did for its call (for logs and tests). */
export interface JournalStats {
  /** Steps answered from the journal. */
  replayed: number;
  /** Steps run live and recorded. */
  recorded: number;
}

/**
 * The journal of one call id in one store.
 *
 * @example
 * ```ts
 * const journal = new StepJournal(store, 'call-42');
 * const response = await withStepJournal(journal, () => agency.getResponse('Book it', { chatId }));
 * await journal.discard(); // the call's threads are saved: nothing left to replay
 * ```
 */
export class StepJournal {
  readonly store: ThreadStore;
  readonly callId: string;
  readonly threadId: string;
  readonly stats: JournalStats = { replayed: 0, recorded: 0 };
  #loaded: Promise<Map<string, JournalEntry>> | undefined;
  #version = 0;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #counters = new Map<string, number>();

  constructor(store: ThreadStore, callId: string) {
    this.store = store;
    this.callId = callId;
    this.threadId = journalThreadId(callId);
  }

  /** The entries already journaled, by key (read from the store once). */
  entries(): Promise<Map<string, JournalEntry>> {
    this.#loaded ??= this.#load();
    return this.#loaded;
  }

  async #load(): Promise<Map<string, JournalEntry>> {
    const stored = await this.store.readItems(this.threadId);
    this.#version = stored.length;
    const byKey = new Map<string, JournalEntry>();
    stored.forEach((entry, position) => {
      const parsed = parseJournalEntry(this.threadId, position, entry.item);
      byKey.set(parsed.key, parsed);
    });
    return byKey;
  }

  /**
   * The journaled step under `key` when it finished and `replays(entry)` accepts it (counted as
   * replayed), or undefined: the step is to run live.
   */
  async lookup(
    key: string,
    replays: (entry: JournalEntry) => boolean = () => true,
  ): Promise<JournalEntry | undefined> {
    const entry = (await this.entries()).get(key);
    if (!entry || !replays(entry)) return undefined;
    this.stats.replayed += 1;
    return entry;
  }

  /**
   * The next number of a counter (0, 1, ...): the model steps of a run path, or the occurrences of
   * one tool call id in it. Deterministic because a replayed call makes its steps in the same order.
   */
  next(counter: string): number {
    const n = this.#counters.get(counter) ?? 0;
    this.#counters.set(counter, n + 1);
    return n;
  }

  /**
   * Appends a finished step; resolves once it is stored. Appends of one call are made one at a
   * time (parallel tool calls finish concurrently), each at the version the last one left.
   */
  record(entry: NewEntry): Promise<void> {
    const full = {
      ...entry,
      type: JOURNAL_ITEM_TYPE,
      schemaVersion: 1,
      at: new Date().toISOString(),
    } as JournalEntry;
    const write = this.#tail.then(async () => {
      const known = await this.entries();
      const item = { id: `step_${this.#version}`, item: full as unknown as AgentInputItem };
      this.#version = await this.store.append(this.threadId, [item], {
        expectedVersion: this.#version,
        chatId: null,
      });
      known.set(full.key, full);
      this.stats.recorded += 1;
    });
    // A failed append fails its step; the next append still waits its turn.
    this.#tail = write.catch(() => undefined);
    return write;
  }

  /** Deletes the journal: the call ended and its threads are saved, so nothing is left to replay. */
  async discard(): Promise<void> {
    await this.#tail;
    await this.store.deleteThread(this.threadId);
    this.#loaded = Promise.resolve(new Map());
    this.#version = 0;
  }
}

/**
 * Runs `work` with `journal` as the step journal of the agency call it starts (`getResponse`,
 * `getResponseStream` or `resume`). Agency calls started from inside a tool of that call (an
 * agency used as a tool) do not share it.
 */
export function withStepJournal<T>(journal: StepJournal, work: () => Promise<T>): Promise<T> {
  return withScope({ journal }, work);
}

/** Runs `work` outside any step journal scope (a tool's own code runs so). */
export function withoutStepJournal<T>(work: () => Promise<T>): Promise<T> {
  return withScope({ journal: undefined }, work);
}

/** The step journal an agency call started now belongs to, if any. */
export function activeStepJournal(): StepJournal | undefined {
  return currentScope().journal;
}
