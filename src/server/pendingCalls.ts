/**
 * Calls stopped for tool approvals or client tool calls, kept by chat id between the request that
 * stopped them and the one that answers (AG-UI resume entries, a tool message, an OpenAI tool
 * result). Each is a record in the agency's own thread store, beside its chat: a thread
 * `colloquy-pending:<agency>:<chatId>` (no chat) whose metadata is the stopped call, and for each
 * client tool call a thread `colloquy-pending-call:<agency>:<callId>` naming the chat (a `/v1`
 * tool result carries only the call id). So a stopped call survives a restart and is answered by
 * any server sharing the store, on every backend, with no new table or migration.
 * @module
 */
import type { AgentInputItem, JsonSchemaDefinition } from '@openai/agents-core';
import type { PendingApproval } from '../agency/approvals.js';
import type { ClientToolDefinition } from '../agency/clientTools.js';
import { ConflictError } from '../errors.js';
import type { ThreadStore } from '../stores/types.js';
import type { ServerRegistry } from './registry.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';

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

/** The prefix of stopped-call record thread ids. */
export const PENDING_THREAD_PREFIX = 'colloquy-pending:';
/** The prefix of the records that find a chat by client tool call id. */
export const PENDING_CALL_THREAD_PREFIX = 'colloquy-pending-call:';

/** Whether a thread id is a stopped-call record (lists of threads leave them out). */
export function isPendingThreadId(threadId: string): boolean {
  return (
    threadId.startsWith(PENDING_THREAD_PREFIX) || threadId.startsWith(PENDING_CALL_THREAD_PREFIX)
  );
}

const chatThread = (agency: string, chatId: string) =>
  `${PENDING_THREAD_PREFIX}${agency}:${chatId}`;
const callThread = (agency: string, callId: string) =>
  `${PENDING_CALL_THREAD_PREFIX}${agency}:${callId}`;

/** Stopped calls by chat id, in the thread stores of the agencies they belong to. */
export class PendingCalls {
  readonly #storeOf: (agency: string) => ThreadStore | undefined;

  /** `storeOf` gives the thread store of a served agency (undefined: no such agency). */
  constructor(storeOf: (agency: string) => ThreadStore | undefined) {
    this.#storeOf = storeOf;
  }

  /** Remembers the stopped call of `chatId` (replacing an earlier one). */
  async set(chatId: string, call: PendingChatCall): Promise<void> {
    const store = this.#store(call.agency);
    await this.#forget(store, call.agency, chatId);
    for (const pending of call.clientCalls) {
      await store.setMetadata(callThread(call.agency, pending.callId), { chatId }, null);
    }
    await store.setMetadata(chatThread(call.agency, chatId), { call }, null);
  }

  /** The stopped call of `chatId` on `agency`, if one waits. */
  async get(agency: string, chatId: string): Promise<PendingChatCall | undefined> {
    const store = this.#storeOf(agency);
    if (!store) return undefined;
    const record = await store.getThread(chatThread(agency, chatId));
    return (record?.metadata.call as PendingChatCall | undefined) ?? undefined;
  }

  /** The chat of `agency` whose stopped call waits on client tool call `callId`, if any. */
  async chatOfCall(agency: string, callId: string): Promise<string | undefined> {
    const store = this.#storeOf(agency);
    if (!store) return undefined;
    const record = await store.getThread(callThread(agency, callId));
    const chatId = record?.metadata.chatId;
    return typeof chatId === 'string' ? chatId : undefined;
  }

  /**
   * Forgets and returns the stopped call of `chatId`: of two requests taking the same call (two
   * servers, a double click), only one gets it, so it is resumed once.
   */
  async take(agency: string, chatId: string): Promise<PendingChatCall | undefined> {
    const store = this.#storeOf(agency);
    if (!store) return undefined;
    const threadId = chatThread(agency, chatId);
    const record = await store.getThread(threadId);
    const call = record?.metadata.call as PendingChatCall | undefined;
    if (!record || !call) return undefined;
    const claim = { role: 'system', content: 'taken' } as AgentInputItem;
    try {
      await store.append(threadId, [{ id: 'taken', item: claim }], {
        expectedVersion: record.version,
        chatId: null,
      });
    } catch (error) {
      if (error instanceof ConflictError) return undefined;
      throw error;
    }
    await this.#forget(store, agency, chatId, call);
    return call;
  }

  #store(agency: string): ThreadStore {
    const store = this.#storeOf(agency);
    if (!store) throw new Error(`No agency "${agency}" is served: its stopped call has no store.`);
    return store;
  }

  /** Deletes the records of the stopped call of `chatId` (the given one, or the stored one). */
  async #forget(
    store: ThreadStore,
    agency: string,
    chatId: string,
    known?: PendingChatCall,
  ): Promise<void> {
    const threadId = chatThread(agency, chatId);
    const call =
      known ?? ((await store.getThread(threadId))?.metadata.call as PendingChatCall | undefined);
    if (!call) return;
    for (const pending of call.clientCalls) {
      await store.deleteThread(callThread(agency, pending.callId));
    }
    await store.deleteThread(threadId);
  }
}

/** The stopped calls of each registry a runtime serves, weakly keyed by the registry. */
const BY_REGISTRY = defineRuntimeSlot(
  'server.pendingCalls',
  () => new WeakMap<ServerRegistry, PendingCalls>(),
);

/** The stopped calls of the app serving `registry` (one holder per registry and runtime). */
export function pendingCallsOf(
  registry: ServerRegistry,
  runtime: ColloquyRuntime = defaultRuntime(),
): PendingCalls {
  const byRegistry = runtime.use(BY_REGISTRY);
  let calls = byRegistry.get(registry);
  if (!calls) {
    calls = new PendingCalls((agency) => registry.agencies.get(agency)?.threads.store);
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
