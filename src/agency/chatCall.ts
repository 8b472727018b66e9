/**
 * One call of a chat, from the outside in: hold the chat (its in-process gate, then the store's
 * chat lease where the store needs one), open the call's trace, run the entry call.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { RunState } from '@openai/agents-core';
import type { LeaseHandle } from '../stores/lease.js';
import type { ThreadStore } from '../stores/types.js';
import { traceCall } from '../tracing/traceCall.js';
import type { ApprovalDecisions } from './approvals.js';
import type { ChatGate } from './chatGate.js';
import { needsChatLease, withChatLease } from './chatLease.js';
import { runEntryCall, type EntryCallHost } from './entryCall.js';
import type { AgencyStreamEvent } from './events.js';
import type { AgencyInput } from './input.js';
import type { GetResponseOptions, ResumeOptions } from './options.js';
import type { AgencyResponse } from './result.js';

/** What holding and tracing a call needs of its agency, resolved once at construction. */
export interface ChatCallHost {
  entry: EntryCallHost;
  gate: ChatGate;
  chatWaitMs: number;
  /** The agency's `tracing` option. */
  tracing: boolean;
  /** The agency's `traceContent` option, when given. */
  traceContent: boolean | undefined;
}

/** Every option one call can carry: the public ones plus approvals and client tool outputs. */
export type ChatCallOptions = GetResponseOptions &
  ApprovalDecisions &
  Pick<ResumeOptions, 'toolOutputs'>;

/** A stopped run to continue, from `Agency.resume`. */
export interface ResumePoint {
  runId: string;
  state: RunState<any, any>;
}

/** One call as the agency received it. */
export interface ChatCallRequest {
  chatId: string;
  message: AgencyInput;
  options: ChatCallOptions;
  emit: ((event: AgencyStreamEvent) => void) | undefined;
  resume: ResumePoint | undefined;
}

/** Runs one call of a chat: calls of one chat run one at a time, across processes on stores with leases. */
export function runChatCall(host: ChatCallHost, call: ChatCallRequest): Promise<AgencyResponse> {
  // Not `async` when the chat is free (the usual case): the call's promise is returned as it is.
  const leave = host.gate.tryEnter(call.chatId);
  return leave ? runHeld(host, call, leave) : enterAndRun(host, call);
}

/** Waits for the chat's earlier calls, then runs this one. */
async function enterAndRun(host: ChatCallHost, call: ChatCallRequest): Promise<AgencyResponse> {
  const { chatId, options } = call;
  return runHeld(host, call, await host.gate.enter(chatId, host.chatWaitMs, options.signal));
}

/** Runs a call that holds the chat's gate, and lets the next call in (`leave`) when it settles. */
function runHeld(
  host: ChatCallHost,
  call: ChatCallRequest,
  leave: () => void,
): Promise<AgencyResponse> {
  let work: Promise<AgencyResponse>;
  try {
    const store = host.entry.runtime.threads.store;
    work = !needsChatLease(store)
      ? traced(host, store, call, undefined)
      : withChatLease(store, call.chatId, host.chatWaitMs, call.options.signal, (lease) =>
          traced(host, store, call, lease),
        );
  } catch (error) {
    leave();
    return Promise.reject(error as Error);
  }
  // Registered first, so the gate is open again before the caller resumes.
  work.then(leave, leave);
  return work;
}

/** The call's work, in a trace unless nothing would be traced. */
function traced(
  host: ChatCallHost,
  store: ThreadStore,
  { chatId, message, options, emit, resume }: ChatCallRequest,
  lease: LeaseHandle | undefined,
): Promise<AgencyResponse> {
  const runId = resume?.runId ?? `run_${randomUUID()}`;
  // Without tracing, and with a Runner that makes no spans, a trace would stay empty: skip it.
  // (A traced Runner passed with `tracing: false` still gets one, marked not to be exported.)
  if (!host.tracing && host.entry.runtime.runner.config.tracingDisabled)
    return runEntryCall(host.entry, message, options, chatId, emit, resume ?? runId, lease);
  // The trace is saved after the call's threads, unfenced: the threads' save may release the lease.
  return traceCall(
    {
      name: `agency ${host.entry.name}`,
      chatId,
      runId,
      agency: host.entry.name,
      store,
      enabled: host.tracing,
      ...(host.traceContent === undefined ? {} : { content: host.traceContent }),
    },
    () => runEntryCall(host.entry, message, options, chatId, emit, resume ?? runId, lease),
  );
}
