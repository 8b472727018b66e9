/**
 * `POST /agencies/:name/ag-ui`: the agency as an AG-UI agent. The body is AG-UI's
 * `RunAgentInput` (its `threadId` is the chat id); the answer is an SSE stream of AG-UI events
 * (`RUN_STARTED` … `RUN_FINISHED` or `RUN_ERROR`) as JSON `data:` lines, optional nulls left out
 * (what `@ag-ui/encoder` writes for SSE, without its protobuf packages). Only the new user message
 * is added to the chat; frontend `tools` are given to the entry point and run by the
 * client; tool approvals end the run with an interrupt outcome that the next run's `resume`
 * entries answer.
 * @module
 */
import { EventType, omitOptionalNulls, type BaseEvent } from '@ag-ui/core';
import { Hono } from 'hono';
import type { AgencyStreamEvent } from '../../agency/events.js';
import type { AgencyResponse } from '../../agency/result.js';
import { errorInfo } from '../../errors.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { HttpError, readJson } from '../errors.js';
import { outputText } from '../openaiInput.js';
import { pendingCallsOf, splitPending, type PendingChatCall } from '../pendingCalls.js';
import { publicError, publicErrorInfo } from '../publicError.js';
import { streamWithAbort, untilAborted } from '../sse.js';
import { startStreamedRun } from '../runs/streamedRun.js';
import { AgUiTranslator } from './agUiEvents.js';
import {
  answersOf,
  clientToolsOf,
  contextInstructions,
  newUserMessage,
  runAgentInputSchema,
  type RunAgentBody,
} from './agUiInput.js';
import { checkClientTools, resumedStream } from './clientCalls.js';

/** The interrupt reason of a tool approval. */
export const APPROVAL_REASON = 'tool_approval';

/** `/agencies/:name/ag-ui`. */
export function agUiRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.post('/:name/ag-ui', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const body = await readJson(c, runAgentInputSchema);
    const chatId = body.threadId;
    const pendingCalls = pendingCallsOf(context.registry, context.runtime);
    const pending = await pendingCalls.get(name, chatId);
    const answers = pending ? answersOf(body, pending) : null;
    const clientTools = answers && pending ? pending.clientTools : clientToolsOf(body);
    checkClientTools(agency, clientTools, 'tools');
    let start: (signal: AbortSignal) => AsyncIterable<AgencyStreamEvent>;
    const taken = answers ? await pendingCalls.take(name, chatId) : undefined;
    if (answers && taken) {
      start = (signal) => resumedStream(context, name, taken, { ...answers, clientTools, signal });
    } else {
      if (body.resume && body.resume.length > 0) {
        throw new HttpError(
          400,
          'INVALID_BODY',
          `No interrupt is waiting on thread "${chatId}" (it was answered, or the server restarted). Send the user's message without "resume".`,
          'resume',
        );
      }
      const known = (await agency.threads.store.listThreads({ chatId })).length > 0;
      const message = newUserMessage(body.messages, known);
      const instructions = contextInstructions(body);
      await pendingCalls.take(name, chatId); // a new message abandons a stopped call
      start = (signal) =>
        context.executor.calls.getResponseStream(name, message, {
          chatId,
          signal,
          ...(clientTools.length > 0 ? { clientTools } : {}),
          ...(instructions ? { additionalInstructions: instructions } : {}),
        });
    }
    context.registry.chats.remember(chatId, name);
    const stopped = { agency: name, clientTools };
    // The call is a background run that this response follows (see streamedRun.ts); a call that
    // stops is remembered whether or not the client still follows.
    const run = await startStreamedRun(c, context, {
      agency: name,
      chatId,
      onDisconnect: body.onDisconnect,
      events: start,
      onCompleted: (result) =>
        rememberStopped(result, stopped, (call) => pendingCalls.set(chatId, call)),
    });
    c.header('content-type', 'text/event-stream');
    return streamWithAbort(
      c,
      async (stream, signal) => {
        // Each run event's last AG-UI event carries its id: a client rejoins after it.
        const send = async (events: BaseEvent[], eventId?: number) => {
          for (const [i, event] of events.entries()) {
            const sse = `data: ${JSON.stringify(omitOptionalNulls(event, 'Event'))}\n\n`;
            const last = eventId !== undefined && i === events.length - 1;
            await stream.write(last ? `id: ${eventId}\n${sse}` : sse);
          }
        };
        const translator = new AgUiTranslator();
        try {
          for await (const [eventId, event] of untilAborted(run.follow(signal), signal)) {
            if (signal.aborted) return;
            if (event.type === 'run_started') {
              const started = { type: EventType.RUN_STARTED, threadId: chatId, runId: body.runId };
              await send(
                [{ ...started, rawEvent: { colloquyRunId: run.runId } } as BaseEvent],
                eventId,
              );
            } else if (event.type === 'run_completed') {
              await send(finish(translator, body, event.result, stopped), eventId);
            } else if (event.type === 'run_failed') {
              await send([runError(publicErrorInfo(event.error))], eventId);
              return;
            } else if (event.type !== 'error') {
              await send(translator.translate(event), eventId);
            }
          }
        } catch (error) {
          if (!signal.aborted) await send([runError(errorInfo(publicError(error)))]);
        }
      },
      { inflight: context.inflight },
    );
  });
  return app;
}

function runError(info: { message: string; code?: string }): BaseEvent {
  return {
    type: EventType.RUN_ERROR,
    message: info.message,
    ...(info.code ? { code: info.code } : {}),
  } as BaseEvent;
}

/** Remembers the client tool calls and approvals a completed call stopped on, for the next run. */
async function rememberStopped(
  result: AgencyResponse,
  { agency, clientTools }: Pick<PendingChatCall, 'agency' | 'clientTools'>,
  remember: (call: PendingChatCall) => Promise<void>,
): Promise<void> {
  if (!result.interruptions || !result.state) return;
  const { approvals, clientCalls } = splitPending(result.interruptions, clientTools);
  await remember({ agency, state: result.state, approvals, clientCalls, clientTools });
}

/** The closing events of a run: its answer, or what it stopped for. */
function finish(
  translator: AgUiTranslator,
  body: RunAgentBody,
  result: AgencyResponse,
  { clientTools }: Pick<PendingChatCall, 'agency' | 'clientTools'>,
): BaseEvent[] {
  const end = { type: EventType.RUN_FINISHED, threadId: body.threadId, runId: body.runId };
  if (!result.interruptions || !result.state) {
    return [
      ...translator.finalText(outputText(result)),
      ...translator.closeSteps(),
      { ...end, result: result.finalOutput } as BaseEvent,
    ];
  }
  const { approvals, clientCalls } = splitPending(result.interruptions, clientTools);
  const calls = clientCalls.flatMap((call) =>
    translator.toolCall(call.callId, call.toolName, call.arguments),
  );
  const closing = [...translator.closeText(), ...calls, ...translator.closeSteps()];
  if (approvals.length === 0) {
    const pendingToolCallIds = clientCalls.map((call) => call.callId);
    return [...closing, { ...end, outcome: { type: 'success', pendingToolCallIds } } as BaseEvent];
  }
  const interrupts = approvals.map((call) => ({
    id: call.callId,
    reason: APPROVAL_REASON,
    message: `${call.agent} wants to run ${call.toolName}(${call.arguments}). Approve?`,
    toolCallId: call.callId,
    responseSchema: {
      type: 'object',
      properties: { approved: { type: 'boolean' } },
      required: ['approved'],
    },
    metadata: { agent: call.agent, toolName: call.toolName, arguments: call.arguments },
  }));
  return [...closing, { ...end, outcome: { type: 'interrupt', interrupts } } as BaseEvent];
}
