/**
 * Calls stopped for tool approvals or client tool calls, kept by chat id between the request that
 * stopped them and the one that answers (AG-UI resume entries, a tool message, an OpenAI tool
 * result). Held in this process's memory: a call pending across a restart starts over.
 * @module
 */
import type { PendingApproval } from '../agency/approvals.js';
import type { ClientToolDefinition } from '../agency/clientTools.js';
import type { JsonSchemaDefinition } from '@openai/agents-core';
import type { ServerRegistry } from './registry.js';

/** A stopped call of one chat. */
export interface PendingChatCall {
  /** The agency it runs on (by served name). */
  agency: string;
  /** The `state` of the stopped response, to pass to `resume`. */
  state: string;
  /** Tool calls waiting for the user's approval. */
  approvals: PendingApproval[];
  /** Client tool calls waiting for the client's result. */
  clientCalls: PendingApproval[];
  /** The client tools the call was given (the resumed call needs them again). */
  clientTools: ClientToolDefinition[];
  /** The call's structured output, if any. */
  outputType?: JsonSchemaDefinition | undefined;
}

/** How many stopped calls are kept before the oldest are forgotten. */
export const MAX_PENDING_CALLS = 1000;

/** Stopped calls by chat id. */
export class PendingCalls {
  readonly #calls = new Map<string, PendingChatCall>();

  /** Remembers the stopped call of `chatId` (replacing an earlier one). */
  set(chatId: string, call: PendingChatCall): void {
    this.#calls.delete(chatId);
    this.#calls.set(chatId, call);
    while (this.#calls.size > MAX_PENDING_CALLS) {
      this.#calls.delete(this.#calls.keys().next().value!);
    }
  }

  get(chatId: string): PendingChatCall | undefined {
    return this.#calls.get(chatId);
  }

  /** The chat whose stopped call waits on client tool call `callId`, if any. */
  chatOfCall(callId: string): string | undefined {
    for (const [chatId, call] of this.#calls) {
      if (call.clientCalls.some((pending) => pending.callId === callId)) return chatId;
    }
    return undefined;
  }

  /** Forgets and returns the stopped call of `chatId`. */
  take(chatId: string): PendingChatCall | undefined {
    const call = this.#calls.get(chatId);
    this.#calls.delete(chatId);
    return call;
  }
}

const byRegistry = new WeakMap<ServerRegistry, PendingCalls>();

/** The stopped calls of the app serving `registry` (one holder per registry). */
export function pendingCallsOf(registry: ServerRegistry): PendingCalls {
  let calls = byRegistry.get(registry);
  if (!calls) {
    calls = new PendingCalls();
    byRegistry.set(registry, calls);
  }
  return calls;
}

/** Splits a stopped response's pending calls into client tool calls and approvals. */
export function splitPending(
  interruptions: readonly PendingApproval[],
  clientTools: readonly ClientToolDefinition[],
): { approvals: PendingApproval[]; clientCalls: PendingApproval[] } {
  const names = new Set(clientTools.map((tool) => tool.name));
  return {
    approvals: interruptions.filter((call) => !names.has(call.toolName)),
    clientCalls: interruptions.filter((call) => names.has(call.toolName)),
  };
}
