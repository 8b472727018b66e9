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
  | { type: 'turn_recorded'; turn: ConversationTurn; turn_count: number }
  | { type: 'ensemble_finished'; result: ConversationResult };
