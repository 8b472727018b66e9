/**
 * The agency call behind a `/v1` request, shared by chat completions and Responses: either a new
 * call with the request's client tools, or the stopped call that the request's tool results
 * answer. Each route only translates its wire format around it.
 * @module
 */
import type { Agency, GetResponseOptions } from '../../agency/agency.js';
import type { PendingApproval } from '../../agency/approvals.js';
import type { ClientToolDefinition } from '../../agency/clientTools.js';
import type { AgencyStreamEvent } from '../../agency/events.js';
import type { AgencyInput } from '../../agency/input.js';
import type { AgencyResponse } from '../../agency/result.js';
import type { RouteContext } from '../context.js';
import type { OutputFormat } from '../outputSchema.js';
import { checkClientTools, resumedStream } from './clientCalls.js';
import {
  answeredCall,
  clientCallsOf,
  clientToolsOf,
  noCallWaiting,
  resumeWithOutputs,
} from './openaiClientTools.js';

/** A new call as a route reads it from its body. */
export interface V1Request {
  message: AgencyInput;
  chatId: string;
  options: GetResponseOptions;
  format?: OutputFormat;
}

/** The call a `/v1` request runs. */
export interface V1Call {
  message: AgencyInput;
  chatId: string;
  options: GetResponseOptions;
  format: OutputFormat | undefined;
  /** The client tool calls a finished call stopped on (remembered for the next request), or none. */
  stopped(result: AgencyResponse): Promise<PendingApproval[]>;
  /**
   * Runs the call to its end. `controller`: the controller of `signal` when the route made it for
   * this call alone (see `ExecutorCallOptions.controller`).
   */
  run(signal: AbortSignal, controller?: AbortController): Promise<AgencyResponse>;
  /** Runs the call as a stream of events. */
  events(signal: AbortSignal): AsyncIterable<AgencyStreamEvent>;
}

/** What {@link v1Call} reads from a request. */
export interface V1CallInput {
  /** The agency's name (the request's `model`). */
  model: string;
  agency: Agency;
  /** The request's `tools`. */
  tools: readonly unknown[] | null | undefined;
  /** Client tool results the request carries, by call id, and the field they came in. */
  outputs: Record<string, string> | null;
  outputsField: string;
  /** Reads a new call from the body (not called when the request answers a stopped one). */
  fresh: () => V1Request;
}

/** The call behind a `/v1` request (a 400 for tool results no stopped call waits on). */
export async function v1Call(context: RouteContext, input: V1CallInput): Promise<V1Call> {
  const { model, outputs } = input;
  const answered = outputs ? await answeredCall(context, model, outputs) : null;
  if (outputs && !answered) throw noCallWaiting(input.outputsField);
  const clientTools: ClientToolDefinition[] = answered
    ? answered.call.clientTools
    : clientToolsOf(input.tools);
  checkClientTools(input.agency, clientTools, 'tools');
  const request: V1Request = answered
    ? { message: '', chatId: answered.chatId, options: {}, format: answered.call.outputType }
    : input.fresh();
  const { message, chatId } = request;
  const options: GetResponseOptions = {
    ...request.options,
    ...(clientTools.length > 0 ? { clientTools } : {}),
  };
  const { calls } = context.executor;
  return {
    message,
    chatId,
    options,
    format: request.format,
    stopped: (result) =>
      clientCallsOf(
        context,
        model,
        chatId,
        result,
        clientTools,
        answered ? answered.call.outputType : options.outputType,
      ),
    run: (signal, controller) =>
      answered && outputs
        ? resumeWithOutputs(context, model, answered, outputs, signal)
        : calls.getResponse(model, message, { ...options, chatId, signal, controller }),
    events: (signal) =>
      answered && outputs
        ? resumedStream(context, model, answered.call, {
            toolOutputs: outputs,
            reject: answered.call.approvals.map((a) => a.callId),
            clientTools,
            signal,
          })
        : calls.getResponseStream(model, message, { ...options, chatId, signal }),
  };
}
