/**
 * Progress events of an ensemble run: plain JSON objects with a literal `type`, naming agents by
 * name, so that they can be logged or sent over SSE unchanged.
 * @module
 */
import type { ConversationResult } from './result.js';
import type { ConversationTurn } from './state.js';

/** One progress event of {@link runEnsemble}. */
export type EnsembleEvent =
  | {
      type: 'ensemble_started';
      run_id: string;
      ensemble: string;
      resumed: boolean;
      turn_count: number;
    }
  | { type: 'step_started'; step: number; agents: string[]; turn_count: number }
  | { type: 'agent_started'; step: number; agent: string }
  | {
      type: 'agent_finished';
      step: number;
      agent: string;
      success: boolean;
      execution_time: number;
      error?: string;
    }
  | {
      /** A `dispatch:` agent starts the ensemble its reference resolved to (after agent_started). */
      type: 'agent_dispatched';
      agent: string;
      /** The agent's `dispatch` as written (`${route.target}` or a name). */
      reference: string;
      /** What it resolved to: the name or path the ensemble was found by. */
      target: string;
      /** The `name:` of the ensemble that runs. */
      ensemble: string;
      /** The child run's id, in the same store. */
      child_run_id: string;
    }
  | { type: 'turn_recorded'; turn: ConversationTurn; turn_count: number }
  | { type: 'ensemble_finished'; result: ConversationResult };
