/**
 * Checkpointing of a run: the working copy of the run's head, saved in order (one save at a
 * time, in the order asked), with the run's elapsed time. Each save writes the bounded head
 * only; committing a step appends its turns to the main thread.
 * @module
 */
import type { ConversationTurn, RunData, WorkflowState } from './runState.js';
import type { WorkflowThread } from './workflowThread.js';

/** Saves a run's head in order. */
export class RunCheckpoints {
  readonly workflow: WorkflowThread;
  /** The working copy of the head: change it, then call {@link save} or {@link commit}. */
  readonly head: WorkflowState;
  readonly #started = performance.now();
  readonly #elapsedBefore: number;
  #chain: Promise<void> = Promise.resolve();

  constructor(workflow: WorkflowThread) {
    this.workflow = workflow;
    this.head = workflow.state;
    this.#elapsedBefore = this.head.data.elapsed_ms;
  }

  /** The run's bookkeeping in the working head. */
  get data(): RunData {
    return this.head.data;
  }

  /** Milliseconds the run has taken so far, over every process that ran it. */
  elapsedMs(): number {
    return this.#elapsedBefore + Math.round(performance.now() - this.#started);
  }

  /**
   * Saves the working head (a snapshot taken now) after the saves already asked for; `checkpoint`
   * false skips the store checkpoint (saves within a step: resume needs only the head).
   */
  save(label: string, checkpoint = true): Promise<void> {
    this.head.data.elapsed_ms = this.elapsedMs();
    const snapshot = structuredClone(this.head);
    return this.#enqueue(() => this.workflow.saveSnapshot(snapshot, label, checkpoint));
  }

  /** Appends `turns` to the run's log and saves the working head, which counts them. */
  commit(turns: ConversationTurn[], label: string): Promise<void> {
    this.head.data.elapsed_ms = this.elapsedMs();
    const snapshot = structuredClone(this.head);
    return this.#enqueue(() => this.workflow.commitSnapshot(snapshot, turns, label));
  }

  /** Waits for every save asked for; rejects with the first that failed. */
  flush(): Promise<void> {
    return this.#chain;
  }

  #enqueue(write: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(write);
    return this.#chain;
  }
}
