/**
 * Reading saved ensemble runs without running them: the typed view other layers (the server,
 * the CLI) use instead of the run's private saved state.
 * @module
 */
import type { ThreadStore } from '../stores/types.js';
import type { ConversationResult } from './runState.js';
import { mainThreadId, WorkflowThread } from './workflowThread.js';

/** A run as saved in a store. */
export interface SavedEnsembleRun {
  runId: string;
  /** The name of the ensemble it runs. */
  ensemble: string;
  /** `finished`, or `running` (running elsewhere, or stopped without finishing: resumable). */
  status: 'running' | 'finished';
  /** Turns committed so far. */
  turnCount: number;
  /** The task the run was started with. */
  input: string;
  /** The result, once finished (with the whole conversation history). */
  result?: ConversationResult;
}

/** Whether `store` holds a run with this id. */
export async function ensembleRunExists(store: ThreadStore, runId: string): Promise<boolean> {
  return (await store.getThread(mainThreadId(runId))) !== null;
}

/**
 * Reads a saved run (validated with its schema), or null when the store has none with this id.
 * Throws SerializationError when the saved state is invalid.
 *
 * @example
 * ```ts
 * const run = await readEnsembleRun(store, 'run-1');
 * if (run?.status === 'finished') console.log(run.result!.completion_reason);
 * ```
 */
export async function readEnsembleRun(
  store: ThreadStore,
  runId: string,
): Promise<SavedEnsembleRun | null> {
  const workflow = await WorkflowThread.load(store, runId);
  if (!workflow) return null;
  const { data, conversation } = workflow.state;
  return {
    runId,
    ensemble: data.ensemble,
    status: data.status,
    turnCount: conversation.turn_count,
    input: data.input,
    ...(data.result
      ? { result: { ...data.result, conversation_history: [...workflow.history] } }
      : {}),
  };
}
