/**
 * A workflow thread: one `main` thread plus one named sub-thread per participant, all filed under
 * one chat (the run id) in a {@link ThreadStore}.
 *
 * The main thread is the run's append-only log: each committed turn is one item, at position
 * `turn_number - 1`. Its metadata holds the bounded head of the run ({@link WorkflowState}),
 * checked with its zod schema on load. Each committed turn item records the versions of the
 * run's sub-threads: the main thread's positions are the run's checkpoints (a store checkpoint
 * is recorded only by {@link WorkflowThread.save}: when the run is created and finishes).
 * Saving and committing cost the same whatever the length of the run: nothing rewrites earlier
 * turns.
 *
 * Items an agent adds to its sub-thread during a step are staged ({@link WorkflowThread.stage})
 * and written with the next save or commit, in one `appendBatch` with the head: on a store with
 * `appendMany` (SQLite) a turn is one transaction, and an agent's items land together with the
 * head that records its outcome.
 *
 * Thread ids: `{runId}::main` and `{runId}::{name}`. Saved-state versions: see `runState.ts`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AgentInputItem } from '@openai/agents-core';
import { SerializationError } from '../errors.js';
import { appendBatch } from '../stores/appendBatch.js';
import type { ThreadItem } from '../stores/item.js';
import type { AppendBatchEntry, ThreadStore } from '../stores/types.js';
import type { ConversationTurn, RunData, WorkflowState } from './runState.js';
import { RUN_STATE_SCHEMA_VERSION } from './runState.js';
import type { ConversationState } from './state.js';
import { headOf } from './state.js';
import { RUN_THREAD_KIND } from './savedRuns.js';
import { SubThreadCache } from './subThreads.js';
import { invalid, turnFromItem, turnItem, workflowStateFromJSON } from './workflowState.js';

export { migrateV1, turnFromItem, turnItem, workflowStateFromJSON } from './workflowState.js';

/** The version of the saved state this code writes. */
export const WORKFLOW_SCHEMA_VERSION = RUN_STATE_SCHEMA_VERSION;

export type { WorkflowState };

/**
 * A thread with named sub-threads, an append-only log of turns and a checkpointed head.
 * One writer at a time (the run lease): it caches what it wrote.
 *
 * @example
 * ```ts
 * const workflow = await WorkflowThread.create(new MemoryStore(), 'run-1', { conversation: createConversationState(), data });
 * await workflow.append('analyzer', [{ id: 'u1', item: { role: 'user', content: 'hi' } }]);
 * const again = await WorkflowThread.load(workflow.store, 'run-1'); // same state and history
 * ```
 */
export class WorkflowThread {
  readonly store: ThreadStore;
  readonly runId: string;
  #state: WorkflowState;
  readonly #history: ConversationTurn[];
  readonly #versions: Record<string, number>;
  /** Sub-threads read so far, and the items staged for the next save or commit. */
  readonly #threads = new SubThreadCache();

  private constructor(
    store: ThreadStore,
    runId: string,
    state: WorkflowState,
    history: ConversationTurn[],
    versions: Record<string, number>,
  ) {
    this.store = store;
    this.runId = runId;
    this.#state = state;
    this.#history = history;
    this.#versions = versions;
  }

  /** Creates the main thread with an initial state. Throws if `runId` already has one. */
  static async create(
    store: ThreadStore,
    runId: string,
    init: { conversation: ConversationState; data: RunData },
  ): Promise<WorkflowThread> {
    if (await store.getThread(mainThreadId(runId))) {
      throw new SerializationError(
        `A workflow with run id "${runId}" already exists. Resume it, or choose another run id.`,
      );
    }
    const state: WorkflowState = {
      schemaVersion: RUN_STATE_SCHEMA_VERSION,
      execution: { step: 0, currentStep: null },
      conversation: headOf(init.conversation),
      data: init.data,
    };
    const thread = new WorkflowThread(store, runId, state, [], {});
    await thread.save(state, 'created');
    return thread;
  }

  /**
   * Loads a workflow saved in `store` (null when there is none): validates the head, reads the
   * turns the head counts and migrates a version-1 state. Turns beyond the head are a commit in
   * progress (another process is writing) or one a crash left: with `repair` (only a caller
   * holding the run's lease, about to resume it) they are cut; readers just ignore them.
   */
  static async load(
    store: ThreadStore,
    runId: string,
    options: { repair?: boolean } = {},
  ): Promise<WorkflowThread | null> {
    const main = mainThreadId(runId);
    const record = await store.getThread(main);
    if (!record) return null;
    const { state, v1History } = workflowStateFromJSON(record.metadata.workflow, runId);
    const versions: Record<string, number> = {};
    for (const thread of await store.listThreads({ chatId: runId }))
      versions[thread.threadId] = thread.version;
    const thread = new WorkflowThread(store, runId, state, [], versions);
    if (v1History) {
      if (record.version === 0 && v1History.length)
        await thread.#appendMain(v1History.map((turn) => turnItem(runId, turn)));
      thread.#history.push(...v1History);
      return thread;
    }
    const count = state.conversation.turn_count;
    if (options.repair && record.version > count) {
      // A crash between appending a step's turns and saving the head: the step is still open
      // in the head, and committing it again writes the same turns.
      await store.rollback(main, count);
      versions[main] = count;
    }
    const items = await store.readItems(main, { limit: count });
    if (items.length !== count)
      throw invalid(
        runId,
        `the head counts ${count} turns but the main thread has ${items.length}`,
      );
    items.forEach((entry, position) => thread.#history.push(turnFromItem(runId, entry, position)));
    return thread;
  }

  /** The last saved head (a deep copy: change it and pass it to {@link save}). */
  get state(): WorkflowState {
    return structuredClone(this.#state);
  }

  /** The committed turns, oldest first (do not mutate). */
  get history(): readonly ConversationTurn[] {
    return this.#history;
  }

  /** The conversation state of the last save: the head plus the committed turns. */
  conversation(): ConversationState {
    return {
      ...structuredClone(this.#state.conversation),
      conversation_history: [...this.#history],
    };
  }

  /** The id of the main thread. */
  get mainThreadId(): string {
    return mainThreadId(this.runId);
  }

  /** The id of a named sub-thread (`main` is the main thread). */
  threadId(name: string): string {
    return `${this.runId}::${name}`;
  }

  /**
   * Saves the head in the main thread's metadata and, unless `checkpoint` is false, records a
   * store checkpoint labelled `label`.
   */
  async save(state: WorkflowState, label = 'step', checkpoint = true): Promise<void> {
    await this.#save(structuredClone(state), label, checkpoint);
  }

  /**
   * {@link save} of a snapshot the caller hands over (it is kept as the last saved head, not
   * copied again): what RunCheckpoints uses, as it snapshots the head when a save is asked for.
   */
  async saveSnapshot(snapshot: WorkflowState, label = 'step', checkpoint = true): Promise<void> {
    await this.#save(snapshot, label, checkpoint);
  }

  async #save(copy: WorkflowState, label: string, checkpoint: boolean): Promise<void> {
    await this.#write(copy, []);
    if (!checkpoint) return;
    await this.store.putCheckpoint({
      checkpointId: `${this.runId}:${randomUUID()}`,
      chatId: this.runId,
      label,
      createdAt: new Date().toISOString(),
      threads: { ...this.#versions },
    });
  }

  /**
   * Commits turns: appends them to the main thread (refused with ConflictError if another writer
   * appended since), each with the sub-threads' versions, then saves the head, whose
   * `turn_count` must count them. No store checkpoint: the turn items are the checkpoint
   * (`label` is kept for the callers' logs).
   */
  async commit(state: WorkflowState, turns: ConversationTurn[], label: string): Promise<void> {
    await this.#commit(structuredClone(state), turns, label);
  }

  /** {@link commit} of a snapshot the caller hands over (see {@link saveSnapshot}). */
  async commitSnapshot(
    snapshot: WorkflowState,
    turns: ConversationTurn[],
    label: string,
  ): Promise<void> {
    await this.#commit(snapshot, turns, label);
  }

  // `label` is kept for the callers' logs: the turn items are the checkpoint.
  async #commit(copy: WorkflowState, turns: ConversationTurn[], _label: string): Promise<void> {
    if (copy.conversation.turn_count !== this.#history.length + turns.length)
      throw invalid(this.runId, 'a commit whose head does not count its turns');
    const threads = turns.length ? this.#subThreadVersions() : {};
    // The turn items are the checkpoint (position + sub-thread versions): no store checkpoint.
    await this.#write(
      copy,
      turns.map((turn) => turnItem(this.runId, turn, threads)),
    );
    this.#history.push(...turns);
  }

  /**
   * Writes the staged sub-thread items, then `items` to the main thread with the head `copy` as
   * its metadata: one `appendBatch` (one transaction where the store has `appendMany`). The main
   * thread's append is checked against its known version (ConflictError if another writer
   * appended since).
   */
  async #write(copy: WorkflowState, items: ThreadItem[]): Promise<void> {
    const main = this.mainThreadId;
    // Taken out now: agents still running may stage more while the batch is being written.
    const taken = this.#threads.take();
    const batch: AppendBatchEntry[] = taken.map(([threadId, staged]) => ({
      threadId,
      items: staged,
      options: { expectedVersion: this.#versions[threadId]! - staged.length, chatId: this.runId },
    }));
    batch.push({
      threadId: main,
      items,
      options: { expectedVersion: this.#versions[main] ?? 0, chatId: this.runId },
      metadata: { kind: RUN_THREAD_KIND, workflow: copy },
    });
    let versions: number[];
    try {
      versions = await appendBatch(this.store, batch);
    } catch (error) {
      this.#threads.restage(taken);
      throw error;
    }
    this.#versions[main] = versions.at(-1)!;
    this.#state = copy;
  }

  /** The versions of the run's sub-threads (by name; the main thread is left out). */
  #subThreadVersions(): Record<string, number> {
    const prefix = `${this.runId}::`;
    const threads: Record<string, number> = {};
    for (const [id, version] of Object.entries(this.#versions))
      if (id !== this.mainThreadId && id.startsWith(prefix))
        threads[id.slice(prefix.length)] = version;
    return threads;
  }

  async #appendMain(items: ThreadItem[]): Promise<void> {
    const id = this.mainThreadId;
    this.#versions[id] = await this.store.append(id, items, {
      expectedVersion: this.#versions[id] ?? 0,
      chatId: this.runId,
    });
  }

  /**
   * Appends items to a sub-thread now (after any staged for it); returns its new version. An
   * ensemble's agents {@link stage} instead.
   */
  async append(name: string, items: ThreadItem[]): Promise<number> {
    const id = this.threadId(name);
    const known = await this.version(name);
    const taken = this.#threads.take(id);
    const staged = taken[0]?.[1] ?? [];
    let version: number;
    try {
      [version] = (await appendBatch(this.store, [
        {
          threadId: id,
          items: [...staged, ...items],
          options: { expectedVersion: known - staged.length, chatId: this.runId },
        },
      ])) as [number];
    } catch (error) {
      this.#threads.restage(taken);
      throw error;
    }
    this.#versions[id] = (this.#versions[id] ?? known) + items.length;
    this.#threads.add(id, items);
    return version;
  }

  /**
   * Adds items to a sub-thread in memory (readable at once through {@link view}, {@link inputs}
   * and {@link version}); the next save or commit writes them, with the head. Returns the new
   * version.
   */
  async stage(name: string, items: ThreadItem[]): Promise<number> {
    const id = this.threadId(name);
    await this.#cached(name);
    const version = (await this.version(name)) + items.length;
    this.#threads.stage(id, items);
    this.#versions[id] = version;
    return version;
  }

  /** The items of a sub-thread (a copy). */
  async read(name: string): Promise<ThreadItem[]> {
    return [...(await this.#cached(name))];
  }

  /**
   * The items of a sub-thread, read once from the store and then kept up to date by
   * {@link append} and {@link truncate}: a view, not a copy (do not mutate). Reading it costs
   * the same at turn 1,000 as at turn 10.
   */
  async view(name: string): Promise<readonly ThreadItem[]> {
    return this.#cached(name);
  }

  /**
   * The model input items of a sub-thread (each entry's `item`), kept like {@link view}: a view,
   * not a copy. Copying it (`slice`) copies references only, without visiting each entry: the
   * entries of a long conversation lie all over the heap, and reading each one's `item` cost
   * more per turn the longer the conversation was.
   */
  async inputs(name: string): Promise<readonly AgentInputItem[]> {
    await this.#cached(name);
    return this.#threads.inputs(this.threadId(name))!;
  }

  async #cached(name: string): Promise<ThreadItem[]> {
    const id = this.threadId(name);
    let items = this.#threads.entries(id);
    if (!items) {
      items = await this.store.readItems(id);
      this.#threads.set(id, items);
      this.#versions[id] = items.length;
    }
    return items;
  }

  /** The version of a sub-thread (0 when it has no items). */
  async version(name: string): Promise<number> {
    const id = this.threadId(name);
    const known = this.#versions[id];
    if (known !== undefined) return known;
    const version = (await this.store.getThread(id))?.version ?? 0;
    this.#versions[id] = version;
    return version;
  }

  /** Cuts a sub-thread back to `version` items (items written or staged by an unfinished step). */
  async truncate(name: string, version: number): Promise<void> {
    const current = await this.version(name);
    if (current <= version) return;
    const id = this.threadId(name);
    if (this.#threads.cut(id, version, current - this.#threads.stagedCount(id)))
      await this.store.rollback(id, version);
    this.#versions[id] = version;
  }
}

/** The id of a workflow's main thread. */
export function mainThreadId(runId: string): string {
  return `${runId}::main`;
}
