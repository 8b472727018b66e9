/**
 * Conversation state: what an ensemble run knows after each turn. A turn is one finished agent
 * execution; its `turn_number` counts from 1. The shapes follow llm-orc's ConversationState and
 * ConversationTurn (snake_case), with `timestamp` as an ISO-8601 string.
 *
 * Everything a step needs (counts, latest outputs, usage) is kept up to date by
 * {@link recordTurn}, so nothing scans `conversation_history`: a turn costs the same at turn
 * 1,000 as at turn 10.
 * @module
 */
import type {
  AnsweredRequest,
  ConversationHead,
  ConversationTurn,
  LlmOrcUsage,
  TurnStatus,
} from './runState.js';
import { addLlmOrcUsage, emptyLlmOrcUsage } from './llmOrcUsage.js';

export type { AnsweredRequest, ConversationTurn, LlmOrcUsage, TurnStatus };

/** The state of a conversation: the saved head plus the history (kept in memory, saved as items). */
export interface ConversationState extends ConversationHead {
  conversation_history: ConversationTurn[];
}

/** An empty state; `initialContext` seeds `accumulated_context`. */
export function createConversationState(
  initialContext: Record<string, unknown> = {},
): ConversationState {
  return {
    turn_count: 0,
    agent_execution_count: {},
    accumulated_context: { ...initialContext },
    latest_outputs: {},
    latest_status: {},
    usage: emptyLlmOrcUsage(),
    model_requests: {},
    input_requests: {},
    failed_agents: [],
    conversation_history: [],
  };
}

/** The bounded part of a state, as saved (a deep copy). */
export function headOf(state: ConversationState): ConversationHead {
  const { conversation_history: _history, ...head } = state;
  return structuredClone(head);
}

/** The usage summed over every turn. */
export function totalUsage(state: ConversationState): LlmOrcUsage {
  return { ...state.usage };
}

/** Each agent's latest successful output, by agent name. */
export function latestOutputs(state: ConversationState): Record<string, Record<string, unknown>> {
  return state.latest_outputs;
}

/** Agents whose latest execution failed, with the error. */
export function latestFailures(state: ConversationState): Record<string, string> {
  const failures: Record<string, string> = {};
  for (const [agent, entry] of Object.entries(state.latest_status))
    if (entry.status === 'failed') failures[agent] = entry.error ?? 'failed';
  return failures;
}

/**
 * Records a finished turn: increments the counts, appends the turn and, when it succeeded, writes
 * the output to `accumulated_context[stateKey ?? agent name]` (`stateKey`: the agent's
 * `conversation.state_key`). A failed or skipped turn counts
 * as an execution (dependents see it) but leaves the outputs as they were. Mutates and returns
 * `state`.
 */
export function recordTurn(
  state: ConversationState,
  turn: Omit<ConversationTurn, 'turn_number'>,
  stateKey?: string,
): ConversationState {
  const name = turn.agent_name;
  state.turn_count += 1;
  state.agent_execution_count[name] = (state.agent_execution_count[name] ?? 0) + 1;
  state.conversation_history.push({ turn_number: state.turn_count, ...turn });
  const status = turn.status ?? 'success';
  if (status === 'success') {
    state.accumulated_context[stateKey ?? name] = turn.output_data;
    state.latest_outputs[name] = turn.output_data;
    delete state.latest_status[name];
  } else {
    state.latest_status[name] = { status, ...(turn.error ? { error: turn.error } : {}) };
    if (status === 'failed' && !state.failed_agents.includes(name)) state.failed_agents.push(name);
  }
  state.usage = addLlmOrcUsage(state.usage, turn.usage);
  if (turn.usage)
    state.model_requests[name] = (state.model_requests[name] ?? 0) + turn.usage.requests;
  if (turn.input_requests?.length)
    state.input_requests[name] = (state.input_requests[name] ?? 0) + turn.input_requests.length;
  return state;
}
