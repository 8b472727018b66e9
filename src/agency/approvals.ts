/**
 * Tool approvals across an agency: what an interrupted call returns, and the serializable state
 * that resumes it.
 * @module
 */
import type { RunState, RunToolApprovalItem } from '@openai/agents-core';
import { SerializationError } from '../errors.js';

/** A tool call waiting for the user's approval, possibly deep inside the call tree. */
export interface PendingApproval {
  /** The tool call's id: pass it to `approve` or `reject` when resuming. */
  callId: string;
  toolName: string;
  /** The call's arguments as the model wrote them (JSON text). */
  arguments: string;
  /** The agent whose tool it is. */
  agent: string;
}

/** Everything needed to resume an interrupted agency call, as JSON text. */
export interface PendingCall {
  format: 'colloquy-pending-call';
  version: 1;
  chatId: string;
  /** The entry point the call went to. */
  agent: string;
  runId: string;
  /** The SDK RunState of the entry point's run (nested runs' states are inside it). */
  state: string;
}

/** The user's decisions on pending tool calls: callIds, or `true` for all. */
export interface ApprovalDecisions {
  approve?: string[] | true;
  reject?: string[] | true;
}

/**
 * Applies decisions to the pending calls of one run's state. Each run (the entry point's and every
 * nested one) gets them when its state is restored, so a decision reaches the agent that owns
 * the tool wherever it sits in the call tree.
 */
export function applyDecisions(
  state: RunState<any, any>,
  decisions: ApprovalDecisions | undefined,
): void {
  if (!decisions) return;
  const matches = (list: string[] | true | undefined, callId: string): boolean =>
    list === true || (Array.isArray(list) && list.includes(callId));
  for (const item of state.getInterruptions()) {
    const callId = (item.rawItem as { callId?: string }).callId ?? '';
    if (matches(decisions.approve, callId)) state.approve(item);
    else if (matches(decisions.reject, callId)) state.reject(item);
  }
}

/** The plain form of the SDK's approval items. */
export function pendingApprovals(items: readonly RunToolApprovalItem[]): PendingApproval[] {
  return items.map((item) => {
    const raw = item.rawItem as { callId?: string; id?: string; name?: string; arguments?: string };
    return {
      callId: raw.callId ?? raw.id ?? '',
      toolName: item.toolName ?? raw.name ?? 'tool',
      arguments: raw.arguments ?? '',
      agent: item.agent.name,
    };
  });
}

/** Reads a pending call written by {@link Agency.getResponse}. */
export function parsePendingCall(text: string): PendingCall {
  let value: Partial<PendingCall>;
  try {
    value = JSON.parse(text) as Partial<PendingCall>;
  } catch (error) {
    throw new SerializationError(
      `The pending call is not JSON: ${(error as Error).message}. Pass result.state as it was returned.`,
    );
  }
  if (value.format !== 'colloquy-pending-call' || value.version !== 1) {
    throw new SerializationError(
      `The pending call has format ${JSON.stringify(value.format)} version ${JSON.stringify(value.version)}; ` +
        'this build resumes "colloquy-pending-call" version 1.',
    );
  }
  if (
    typeof value.chatId !== 'string' ||
    typeof value.agent !== 'string' ||
    typeof value.runId !== 'string' ||
    typeof value.state !== 'string'
  ) {
    throw new SerializationError(
      'The pending call lacks chatId, agent, runId or state. Pass result.state as it was returned.',
    );
  }
  return value as PendingCall;
}
