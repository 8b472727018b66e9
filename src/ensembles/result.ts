/**
 * The result of an ensemble run, shaped like llm-orc's ConversationResult.
 * @module
 */
import type { ConversationState, ConversationTurn, EnsembleUsage } from './state.js';
import { totalUsage } from './state.js';

/** Why a run stopped. */
export type CompletionReason =
  | 'completed'
  | 'max_total_turns'
  | 'max_agent_executions'
  | 'timeout'
  | 'no_runnable_agents'
  | 'error';

/** Every completion reason, for validation and docs. */
export const COMPLETION_REASONS: readonly CompletionReason[] = [
  'completed',
  'max_total_turns',
  'max_agent_executions',
  'timeout',
  'no_runnable_agents',
  'error',
];

/** The failing agent and its message, when `completion_reason` is `error`. */
export interface EnsembleRunFailure {
  /** The agent that failed, or null when the scheduler itself failed. */
  agent: string | null;
  message: string;
  /** The agent's stderr, for script agents. */
  stderr?: string;
}

/** What a run produced. */
export interface ConversationResult {
  /** The run id; pass it as `resume` to continue an interrupted run. */
  run_id: string;
  /** `accumulated_context` at the end. */
  final_state: Record<string, unknown>;
  conversation_history: ConversationTurn[];
  turn_count: number;
  completion_reason: CompletionReason;
  /** LLM usage summed over every turn. */
  usage: EnsembleUsage;
  /** Runs per agent. */
  agent_execution_count: Record<string, number>;
  /** Set when `completion_reason` is `error`. */
  error?: EnsembleRunFailure;
}

/** Builds the result from the final state. */
export function buildResult(
  runId: string,
  state: ConversationState,
  reason: CompletionReason,
  error?: EnsembleRunFailure,
): ConversationResult {
  return {
    run_id: runId,
    final_state: state.accumulated_context,
    conversation_history: state.conversation_history,
    turn_count: state.turn_count,
    completion_reason: reason,
    usage: totalUsage(state),
    agent_execution_count: state.agent_execution_count,
    ...(error ? { error } : {}),
  };
}
