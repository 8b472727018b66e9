/**
 * What travels through the queue: the data of each kind of job, and the messages a worker
 * publishes while it runs one. Everything is plain JSON.
 * @module
 */
import type { AgencyInput } from '../agency/input.js';
import type { CallOptions } from '../agency/callOptions.js';
import type { ApprovalDecisions } from '../agency/approvals.js';
import type { ClientToolDefinition } from '../agency/clientTools.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import type { ErrorInfo } from '../errors.js';
import { ColloquyError, type ColloquyErrorCode } from '../errors.js';

/** Job names. */
export const JOB = { call: 'agency-call', run: 'ensemble-run' } as const;

/** An agency call (a message, or the resumption of a call stopped for approvals). */
export interface CallJobData {
  /** Also the job id and the name of the call's event channel. */
  callId: string;
  /** The served name of the agency. */
  agency: string;
  /** The chat (the job's routing key; `options.chatId` is the same when set). */
  chatId: string;
  /** Text or SDK input items (JSON as they are). */
  message: AgencyInput;
  /**
   * The call's serialisable options as the caller gave them ({@link CallOptions}), carried
   * untouched: a field added to `callOptionsSchema` reaches the worker with no edit here.
   */
  options?: CallOptions;
  /**
   * The channel to publish the call's messages on (its server's inbox; they carry `callId`).
   * Default: the call's own channel, `callEvents(callId)`.
   */
  replyTo?: string;
  /** Publish every event (a streamed call), not only the last one. */
  stream: boolean;
  /** The caller's client tools for the entry point (a frontend's tools; see `clientTools`). */
  clientTools?: ClientToolDefinition[];
  /**
   * Resume a call stopped for approvals or client tool calls instead of sending `message`, with
   * the decisions and the client tools' outputs by call id.
   */
  resume?: { state: string; toolOutputs?: Record<string, string> } & ApprovalDecisions;
  /** The signed-in user who asked for the call: the worker checks they own the chat first. */
  owner?: { userId: string; admin: boolean };
}

/** An ensemble run to start or resume. */
export interface RunJobData {
  runId: string;
  /** The served (file) name of the ensemble, for a new run. */
  ensemble?: string;
  input?: string;
  initialContext?: Record<string, unknown>;
  /** Answers for the run's questions (a scripted input handler's file). */
  answers?: unknown;
  resume: boolean;
}

/** One message on a call's channel: an event of the given attempt (1 for the first). */
export interface CallMessage {
  /** The call (on a server's inbox, which carries the messages of all its calls). */
  callId?: string;
  attempt: number;
  event: AgencyStreamEvent;
}

/** Whether an event ends a call's stream. */
export function isTerminal(event: { type: string }): boolean {
  return event.type === 'run_completed' || event.type === 'error';
}

/** The error a remote failure is rethrown as: same name, code and message. */
export function remoteError(info: ErrorInfo): Error {
  const error =
    info.code !== undefined
      ? new ColloquyError(info.code as ColloquyErrorCode, info.message)
      : new Error(info.message);
  error.name = info.name;
  return error;
}
