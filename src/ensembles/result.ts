/**
 * The result of an ensemble run, shaped like llm-orc's ConversationResult (schema in
 * `runState.ts`), plus `failed_agents`.
 * @module
 */
import type { CompletionReason, ConversationResult, EnsembleRunFailure } from './runState.js';
import { completionReasonSchema } from './runState.js';
import type { ConversationState } from './state.js';
import { totalUsage } from './state.js';

export type { CompletionReason, ConversationResult, EnsembleRunFailure };

/** Every completion reason, for validation and docs. */
export const COMPLETION_REASONS: readonly CompletionReason[] = completionReasonSchema.options;

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
    failed_agents: [...state.failed_agents],
    ...(error ? { error } : {}),
  };
}
