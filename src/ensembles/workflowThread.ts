/**
 * A workflow thread: one `main` thread plus one named sub-thread per participant, all filed under
 * one chat (the run id) in a {@link ThreadStore}. The workflow's execution state lives in the main
 * thread's metadata, and each save records a store checkpoint, so that loading the thread back is
 * how an interrupted run resumes.
 *
 * Thread ids: `{runId}::main` and `{runId}::{name}`.
 *
 * Saved state changelog (`schemaVersion`):
 * - 1: first version: `execution { stepHistory, currentStep, nextSteps }`, `conversation`, `data`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { SerializationError } from '../errors.js';
import type { ConversationState } from './state.js';
import type { ThreadStore } from '../stores/types.js';
import type { ThreadItem } from '../stores/item.js';

/** The version of the saved state this code writes. */
export const WORKFLOW_SCHEMA_VERSION = 1;

/** One step of a workflow: the participants it runs and what each produced when finished. */
export interface WorkflowStep {
  /** 1-based step number. */
  step: number;
  /** Participants run in this step, in order. */
  agents: string[];
  /** Results of the participants that finished, by name. */
  finished: Record<string, unknown>;
  /** Inputs given to each participant, by name. */
  inputs?: Record<string, unknown>;
}

/** Where a workflow is. */
export interface ExecutionState {
  /** Finished steps: their number and participants. */
  stepHistory: { step: number; agents: string[] }[];
  /** The step being run, or null between steps. */
  currentStep: WorkflowStep | null;
  /** Participants of the current step not yet finished. */
  nextSteps: string[];
}

/** Everything a workflow saves. */
export interface WorkflowState {
  schemaVersion: number;
  execution: ExecutionState;
  conversation: ConversationState;
  /** Free-form JSON the workflow owner keeps (status, inputs, bookkeeping). */
  data: Record<string, unknown>;
}

const workflowStateSchema = z.object({
  schemaVersion: z.literal(WORKFLOW_SCHEMA_VERSION),
  execution: z.object({
    stepHistory: z.array(z.object({ step: z.number(), agents: z.array(z.string()) })),
    currentStep: z
      .object({
        step: z.number(),
        agents: z.array(z.string()),
        finished: z.record(z.string(), z.unknown()),
        inputs: z.record(z.string(), z.unknown()).optional(),
      })
      .nullable(),
    nextSteps: z.array(z.string()),
  }),
  conversation: z.object({
    turn_count: z.number().int().nonnegative(),
    agent_execution_count: z.record(z.string(), z.number()),
    accumulated_context: z.record(z.string(), z.unknown()),
    conversation_history: z.array(z.record(z.string(), z.unknown())),
  }),
  data: z.record(z.string(), z.unknown()),
});

/** Parses saved state (a main thread's metadata `workflow`), checking it with the schema. */
export function workflowStateFromJSON(value: unknown, runId: string): WorkflowState {
  const parsed = workflowStateSchema.safeParse(value);
  if (!parsed.success) {
    throw new SerializationError(
      `The saved state of workflow "${runId}" does not match schemaVersion ${WORKFLOW_SCHEMA_VERSION}: ${parsed.error.issues[0]?.message ?? 'invalid'} ` +
        `at ${parsed.error.issues[0]?.path.join('.') ?? '?'}. It was written by another Colloquy version or edited; start a new run.`,
    );
  }
  return parsed.data as unknown as WorkflowState;
}

/**
 * A thread with named sub-threads and a checkpointed execution state.
 *
 * @example
 * ```ts
 * const workflow = await WorkflowThread.create(new MemoryStore(), 'run-1', { conversation: createConversationState() });
 * await workflow.append('analyzer', [{ id: 'u1', item: { role: 'user', content: 'hi' } }]);
 * await workflow.save({ ...workflow.state, data: { status: 'running' } });
 * const again = await WorkflowThread.load(workflow.store, 'run-1'); // same state
 * ```
 */
export class WorkflowThread {
  readonly store: ThreadStore;
  readonly runId: string;
  #state: WorkflowState;

  private constructor(store: ThreadStore, runId: string, state: WorkflowState) {
    this.store = store;
    this.runId = runId;
    this.#state = state;
  }

  /** Creates the main thread with an initial state. Throws if `runId` already has one. */
  static async create(
    store: ThreadStore,
    runId: string,
    init: { conversation: ConversationState; data?: Record<string, unknown> },
  ): Promise<WorkflowThread> {
    if (await store.getThread(mainThreadId(runId))) {
      throw new SerializationError(
        `A workflow with run id "${runId}" already exists. Resume it, or choose another run id.`,
      );
    }
    const state: WorkflowState = {
      schemaVersion: WORKFLOW_SCHEMA_VERSION,
      execution: { stepHistory: [], currentStep: null, nextSteps: [] },
      conversation: init.conversation,
      data: init.data ?? {},
    };
    const thread = new WorkflowThread(store, runId, state);
    await thread.save(state, 'created');
    return thread;
  }

  /** Loads a workflow saved in `store`, or returns null when there is none. */
  static async load(store: ThreadStore, runId: string): Promise<WorkflowThread | null> {
    const record = await store.getThread(mainThreadId(runId));
    if (!record) return null;
    return new WorkflowThread(store, runId, workflowStateFromJSON(record.metadata.workflow, runId));
  }

  /** The last saved state (a deep copy: change it and pass it to {@link save}). */
  get state(): WorkflowState {
    return structuredClone(this.#state);
  }

  /** The id of the main thread. */
  get mainThreadId(): string {
    return mainThreadId(this.runId);
  }

  /** The id of a named sub-thread (`main` is the main thread). */
  threadId(name: string): string {
    return `${this.runId}::${name}`;
  }

  /** Saves the state in the main thread's metadata and records a checkpoint labelled `label`. */
  async save(state: WorkflowState, label = 'step'): Promise<void> {
    const copy = structuredClone(state);
    await this.store.setMetadata(
      this.mainThreadId,
      { kind: 'workflow', workflow: copy },
      this.runId,
    );
    this.#state = copy;
    const threads: Record<string, number> = {};
    for (const record of await this.store.listThreads({ chatId: this.runId }))
      threads[record.threadId] = record.version;
    await this.store.putCheckpoint({
      checkpointId: `${this.runId}:${randomUUID()}`,
      chatId: this.runId,
      label,
      createdAt: new Date().toISOString(),
      threads,
    });
  }

  /** Appends items to a sub-thread; returns its new version. */
  async append(name: string, items: ThreadItem[]): Promise<number> {
    const id = this.threadId(name);
    const version = (await this.store.getThread(id))?.version ?? 0;
    return this.store.append(id, items, { expectedVersion: version, chatId: this.runId });
  }

  /** The items of a sub-thread. */
  async read(name: string): Promise<ThreadItem[]> {
    return this.store.readItems(this.threadId(name));
  }

  /** The version of a sub-thread (0 when it has no items). */
  async version(name: string): Promise<number> {
    return (await this.store.getThread(this.threadId(name)))?.version ?? 0;
  }

  /** Cuts a sub-thread back to `version` items (items written by an unfinished step). */
  async truncate(name: string, version: number): Promise<void> {
    if ((await this.version(name)) > version) await this.store.reset(this.threadId(name), version);
  }
}

/** The id of a workflow's main thread. */
export function mainThreadId(runId: string): string {
  return `${runId}::main`;
}
