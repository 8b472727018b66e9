/**
 * The saved form of a workflow run: its head (`WorkflowState`, read through its zod schema and
 * migrated from version 1) and its turns, one main-thread item each. {@link WorkflowThread}
 * writes and reads runs through these.
 * @module
 */
import { SerializationError } from '../errors.js';
import type { ThreadItem } from '../stores/item.js';
import type { ConversationTurn, WorkflowState, WorkflowStateV1 } from './runState.js';
import {
  conversationTurnSchema,
  RUN_STATE_SCHEMA_VERSION,
  workflowStateSchema,
  workflowStateV1Schema,
} from './runState.js';
import { createConversationState, headOf, recordTurn } from './state.js';

export function invalid(runId: string, detail: string): SerializationError {
  return new SerializationError(
    `The saved state of ensemble run "${runId}" is invalid: ${detail}. ` +
      `This Colloquy reads schemaVersion 1 and ${RUN_STATE_SCHEMA_VERSION}; the state was written ` +
      'by another version or edited. Start a new run.',
  );
}

/**
 * Parses saved state (a main thread's metadata `workflow`) with the schema. A version-1 state is
 * returned as such, with `migrated` holding its history (see {@link migrateV1}).
 */
export function workflowStateFromJSON(
  value: unknown,
  runId: string,
): { state: WorkflowState; v1History?: ConversationTurn[] } {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version === 1) {
    const parsed = workflowStateV1Schema.safeParse(value);
    if (!parsed.success) throw invalid(runId, describe(parsed.error.issues));
    return migrateV1(parsed.data);
  }
  const parsed = workflowStateSchema.safeParse(value);
  if (!parsed.success) throw invalid(runId, describe(parsed.error.issues));
  return { state: parsed.data };
}

function describe(issues: { message: string; path: PropertyKey[] }[]): string {
  const issue = issues[0];
  return issue ? `${issue.message} at ${issue.path.map(String).join('.') || '(root)'}` : 'invalid';
}

/** Rebuilds the head of a version-1 state by replaying its history. */
export function migrateV1(v1: WorkflowStateV1): {
  state: WorkflowState;
  v1History: ConversationTurn[];
} {
  const conversation = createConversationState();
  for (const { turn_number: _n, ...turn } of v1.conversation.conversation_history)
    recordTurn(conversation, turn);
  conversation.accumulated_context = v1.conversation.accumulated_context;
  conversation.agent_execution_count = v1.conversation.agent_execution_count;
  conversation.turn_count = v1.conversation.turn_count;
  const { result, ...data } = v1.data;
  const state: WorkflowState = {
    schemaVersion: RUN_STATE_SCHEMA_VERSION,
    execution: {
      step: v1.execution.stepHistory.length,
      currentStep: v1.execution.currentStep,
    },
    conversation: headOf(conversation),
    data: {
      ...data,
      ...(result ? { result: withoutHistory(result) } : {}),
    },
  };
  return { state, v1History: v1.conversation.conversation_history };
}

function withoutHistory<T extends { conversation_history: unknown }>(
  value: T,
): Omit<T, 'conversation_history'> {
  const { conversation_history: _history, ...rest } = value;
  return rest;
}

/**
 * The main-thread item of a committed turn: its output as text, the whole turn in providerData,
 * and (`threads`) the versions of the run's sub-threads once its step was committed: the item's
 * position and these versions are the run's checkpoint at that turn.
 */
export function turnItem(
  runId: string,
  turn: ConversationTurn,
  threads?: Record<string, number>,
): ThreadItem {
  return {
    id: `turn-${turn.turn_number}`,
    item: {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: JSON.stringify(turn.output_data) }],
      providerData: { ensembleTurn: turn, ...(threads ? { threads } : {}) },
    },
    meta: {
      agent: turn.agent_name,
      callerAgent: null,
      runId,
      parentRunId: null,
      createdAt: turn.timestamp,
    },
  };
}

/** The turn stored in a main-thread item; throws SerializationError when it is not one. */
export function turnFromItem(runId: string, entry: ThreadItem, position: number): ConversationTurn {
  const raw = (entry.item as { providerData?: Record<string, unknown> }).providerData?.ensembleTurn;
  const parsed = conversationTurnSchema.safeParse(raw);
  if (!parsed.success || parsed.data.turn_number !== position + 1)
    throw invalid(
      runId,
      `item ${position} of the main thread is not turn ${position + 1} (${parsed.success ? `turn ${parsed.data.turn_number}` : describe(parsed.error.issues)})`,
    );
  return parsed.data;
}
