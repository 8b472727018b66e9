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
 * Thread ids: `{runId}::main` and `{runId}::{name}`. Saved-state versions: see `runState.ts`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { SerializationError } from '../errors.js';
import type { ThreadItem } from '../stores/item.js';
import type { ThreadStore } from '../stores/types.js';
import type { ConversationTurn, RunData, WorkflowState } from './runState.js';
import { RUN_STATE_SCHEMA_VERSION } from './runState.js';
import type { ConversationState } from './state.js';
import { headOf } from './state.js';
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
  readonly #items = new Map<string, ThreadItem[]>();

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
      await store.reset(main, count);
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
    await this.store.setMetadata(
      this.mainThreadId,
      { kind: 'workflow', workflow: copy },
      this.runId,
    );
    this.#state = copy;
    this.#versions[this.mainThreadId] ??= 0;
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

  async #commit(copy: WorkflowState, turns: ConversationTurn[], label: string): Promise<void> {
    if (copy.conversation.turn_count !== this.#history.length + turns.length)
      throw invalid(this.runId, 'a commit whose head does not count its turns');
    if (turns.length) {
      const threads = this.#subThreadVersions();
      await this.#appendMain(turns.map((turn) => turnItem(this.runId, turn, threads)));
    }
    this.#history.push(...turns);
    // The turn items are the checkpoint (position + sub-thread versions): no store checkpoint.
    await this.#save(copy, label, false);
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

  /** Appends items to a sub-thread; returns its new version. */
  async append(name: string, items: ThreadItem[]): Promise<number> {
    const id = this.threadId(name);
    const version = await this.store.append(id, items, {
      expectedVersion: await this.version(name),
      chatId: this.runId,
    });
    this.#versions[id] = version;
    this.#items.get(id)?.push(...items);
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

  async #cached(name: string): Promise<ThreadItem[]> {
    const id = this.threadId(name);
    let items = this.#items.get(id);
    if (!items) {
      items = await this.store.readItems(id);
      this.#items.set(id, items);
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

  /** Cuts a sub-thread back to `version` items (items written by an unfinished step). */
  async truncate(name: string, version: number): Promise<void> {
    if ((await this.version(name)) <= version) return;
    const id = this.threadId(name);
    await this.store.reset(id, version);
    this.#versions[id] = version;
    this.#items.get(id)?.splice(version);
  }
}

/** The id of a workflow's main thread. */
export function mainThreadId(runId: string): string {
  return `${runId}::main`;
}
