/**
 * Client tools on `/v1`: the `tools` of a chat completion or Responses request are given to the
 * entry point; when the model calls one, the reply carries the call (`tool_calls` /
 * `function_call` items) and the call stops; the client's next request with the tool results
 * (`role: tool` messages / `function_call_output` items, matched by call id) continues it.
 * @module
 */
import type { ClientToolDefinition } from '../../agency/clientTools.js';
import type { AgencyResponse } from '../../agency/result.js';
import type { PendingApproval } from '../../agency/approvals.js';
import type { RouteContext } from '../context.js';
import { HttpError } from '../errors.js';
import { pendingCallsOf, splitPending, type PendingChatCall } from '../pendingCalls.js';
import type { JsonSchemaDefinition } from '@openai/agents-core';

type WireTool = Record<string, unknown> & { type?: unknown };

/** The client tools of a request: `{ type: 'function', function: {…} }` or `{ type: 'function', name, … }`. */
export function clientToolsOf(
  tools: readonly unknown[] | null | undefined,
): ClientToolDefinition[] {
  return (tools ?? []).map((raw, i) => {
    const tool = (raw ?? {}) as WireTool;
    const fn = (tool.function ?? tool) as Record<string, unknown>;
    if (
      tool.type !== 'function' ||
      typeof fn.name !== 'string' ||
      !/^[A-Za-z0-9_-]{1,64}$/.test(fn.name)
    ) {
      throw new HttpError(
        400,
        'UNSUPPORTED_FIELD',
        `tools.${i} must be a function tool with a name of 1–64 letters, digits, _ or - (got type ${JSON.stringify(tool.type)}). Hosted tools (web search, file search, …) are not supported: the agency's agents bring their own.`,
        `tools.${i}`,
      );
    }
    return {
      name: fn.name,
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      ...(fn.parameters && typeof fn.parameters === 'object'
        ? { parameters: fn.parameters as Record<string, unknown> }
        : {}),
    };
  });
}

/** The 400 for tool results no stopped call waits on (answered already, or the server restarted). */
export function noCallWaiting(path: string): HttpError {
  return new HttpError(
    400,
    'INVALID_BODY',
    'No call of this server waits on these tool results (they were sent already, or the server restarted). Send the user message again to start over.',
    path,
  );
}

/** A stopped call that a request's tool results answer (taken: no other request gets it). */
export interface AnsweredCall {
  chatId: string;
  call: PendingChatCall;
}

/** The stopped call that tool results answer, and the outputs by call id; null if none waits. */
export async function answeredCall(
  context: RouteContext,
  agency: string,
  outputs: Record<string, string>,
): Promise<AnsweredCall | null> {
  const pending = pendingCallsOf(context.registry, context.runtime);
  let chatId: string | undefined;
  for (const id of Object.keys(outputs)) {
    chatId ??= await pending.chatOfCall(agency, id);
  }
  const call = chatId === undefined ? undefined : await pending.get(agency, chatId);
  if (chatId === undefined || !call) return null;
  const missing = call.clientCalls.filter((c) => !(c.callId in outputs));
  if (missing.length > 0) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `The call is waiting on the results of ${missing.map((c) => `${c.toolName} (${c.callId})`).join(', ')}. Send a tool result for each tool call of the last reply.`,
      'messages',
    );
  }
  const taken = await pending.take(agency, chatId);
  return taken ? { chatId, call: taken } : null;
}

/**
 * Continues a stopped call with the client's tool outputs (approvals waiting in the same call
 * are rejected: `/v1` has no way to ask for them).
 */
export function resumeWithOutputs(
  context: RouteContext,
  agency: string,
  answered: AnsweredCall,
  outputs: Record<string, string>,
  signal: AbortSignal,
): Promise<AgencyResponse> {
  const { call } = answered;
  return context.executor.calls.resume(agency, call.state, {
    signal,
    toolOutputs: outputs,
    reject: call.approvals.map((a) => a.callId),
    ...(call.clientTools.length > 0 ? { clientTools: call.clientTools } : {}),
    ...(call.outputType ? { outputType: call.outputType } : {}),
  });
}

/**
 * What a finished or stopped call answers: the client tool calls it stopped on (remembered for
 * the next request), or none. Approvals cannot be asked over `/v1`: they are a 409 naming the
 * route that can.
 */
export async function clientCallsOf(
  context: RouteContext,
  agency: string,
  chatId: string,
  result: AgencyResponse,
  clientTools: ClientToolDefinition[],
  outputType: JsonSchemaDefinition | undefined,
): Promise<PendingApproval[]> {
  if (!result.interruptions || !result.state) return [];
  const { approvals, clientCalls } = splitPending(result.interruptions, clientTools);
  if (clientCalls.length === 0) {
    throw new HttpError(
      400,
      'UNSUPPORTED_FIELD',
      `The agency stopped for approval of ${approvals.map((a) => `${a.agent}.${a.toolName}`).join(', ')}, which /v1 cannot ask for (clients must not retry this). Use POST /agencies/${agency}/ag-ui, /ui-messages or /responses with /resume.`,
    );
  }
  await pendingCallsOf(context.registry, context.runtime).set(chatId, {
    agency,
    state: result.state,
    approvals,
    clientCalls,
    clientTools,
    outputType,
  });
  return clientCalls;
}
