/**
 * Conversation state: what an ensemble run knows after each turn. A turn is one finished agent
 * execution; its `turn_number` counts from 1. The shapes follow llm-orc's ConversationState and
 * ConversationTurn (snake_case), with `timestamp` as an ISO-8601 string.
 * @module
 */
import type { Ensemble } from './schema.js';

/** Token usage summed over LLM calls. */
export interface EnsembleUsage {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** A question an agent asked and the answer it got. */
export interface AnsweredRequest {
  prompt: string;
  key: string;
  answer: string;
}

/** The record of one agent execution. */
export interface ConversationTurn {
  turn_number: number;
  agent_name: string;
  /** What the agent was given: `{ input, context }`. */
  input_data: Record<string, unknown>;
  /** What it returned (`data` of a script's reply, or the parsed text of an LLM agent). */
  output_data: Record<string, unknown>;
  /** Seconds. */
  execution_time: number;
  /** ISO-8601. */
  timestamp: string;
  /** A script agent's stderr, when it wrote any. */
  stderr?: string;
  /** LLM usage of this turn. */
  usage?: EnsembleUsage;
  /** Questions the agent asked through the input handler. */
  input_requests?: AnsweredRequest[];
}

/** The state of a conversation. */
export interface ConversationState {
  turn_count: number;
  agent_execution_count: Record<string, number>;
  accumulated_context: Record<string, unknown>;
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
    conversation_history: [],
  };
}

/** An all-zero usage. */
export function emptyUsage(): EnsembleUsage {
  return { requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 };
}

/** Adds `b` into a copy of `a`. */
export function addUsage(a: EnsembleUsage, b: EnsembleUsage | undefined): EnsembleUsage {
  if (!b) return a;
  return {
    requests: a.requests + b.requests,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** The usage summed over every turn of the history. */
export function totalUsage(state: ConversationState): EnsembleUsage {
  return state.conversation_history.reduce((sum, turn) => addUsage(sum, turn.usage), emptyUsage());
}

/** Each agent's latest output, by agent name. */
export function latestOutputs(state: ConversationState): Record<string, Record<string, unknown>> {
  const outputs: Record<string, Record<string, unknown>> = {};
  for (const turn of state.conversation_history) outputs[turn.agent_name] = turn.output_data;
  return outputs;
}

/**
 * Records a finished turn: increments the counts, appends the turn and writes the output to
 * `accumulated_context[state_key ?? agent name]`. Mutates and returns `state`.
 */
export function recordTurn(
  state: ConversationState,
  ensemble: Ensemble,
  turn: Omit<ConversationTurn, 'turn_number'>,
): ConversationState {
  state.turn_count += 1;
  state.agent_execution_count[turn.agent_name] =
    (state.agent_execution_count[turn.agent_name] ?? 0) + 1;
  state.conversation_history.push({ turn_number: state.turn_count, ...turn });
  const agent = ensemble.agents.find((candidate) => candidate.name === turn.agent_name);
  state.accumulated_context[agent?.conversation.state_key ?? turn.agent_name] = turn.output_data;
  return state;
}
