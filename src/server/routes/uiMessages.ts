/**
 * `POST /agencies/:name/ui-messages`: the agency behind the AI SDK's `useChat` (`ai` v6,
 * `DefaultChatTransport`). The body is what the transport sends (`{ id, messages, trigger }`; `id`
 * is the chat id); the answer is a UI message stream (SSE of chunks, `x-vercel-ai-ui-message-stream: v1`,
 * ending with `[DONE]`). Only the new user message joins the chat. Tool approvals are
 * `tool-approval-request` chunks answered with `addToolApprovalResponse`; optional `tools` in the
 * body are client tools the page runs (`onToolCall` + `addToolOutput`).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApprovalDecisions } from '../../agency/approvals.js';
import type { AgencyStreamEvent } from '../../agency/events.js';
import { errorInfo } from '../../errors.js';
import { agencyNamed, idSchema, type RouteContext } from '../context.js';
import { HttpError, readJson } from '../errors.js';
import { outputText } from '../openaiInput.js';
import { pendingCallsOf, splitPending, type PendingChatCall } from '../pendingCalls.js';
import { publicError, publicErrorInfo } from '../publicError.js';
import { streamWithAbort, untilAborted } from '../sse.js';
import { onDisconnectSchema, startStreamedRun } from '../runs/streamedRun.js';
import { checkClientTools, resumedStream } from './clientCalls.js';
import { UiChunkTranslator, type UiChunk } from './uiMessageChunks.js';

const partSchema = z.looseObject({ type: z.string() });

/** The body `DefaultChatTransport` sends (other fields are ignored). */
export const uiMessagesBodySchema = z.looseObject({
  id: idSchema,
  messages: z
    .array(
      z.looseObject({ id: z.string().optional(), role: z.string(), parts: z.array(partSchema) }),
    )
    .min(1, 'expected at least one message'),
  tools: z
    .array(
      z.looseObject({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1–64 letters, digits, _ or -'),
        description: z.string().optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  /** Colloquy's: what the client disconnecting does to the call (see runs/streamedRun.ts). */
  onDisconnect: onDisconnectSchema,
});

type Body = z.output<typeof uiMessagesBodySchema>;
type Part = Body['messages'][number]['parts'][number];

/** The user's new text: the text parts of the last message, which must be the user's. */
function newText(body: Body): string {
  const index = body.messages.length - 1;
  const last = body.messages[index]!;
  const text = last.parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
  if (last.role !== 'user' || text.trim() === '') {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `The last message must be a user message with text (got role "${last.role}"), or answer the tool calls the chat is waiting on.`,
      `messages.${index}`,
    );
  }
  return text;
}

/** Decisions and client tool outputs in the last assistant message, for the stopped call. */
function answersOf(
  body: Body,
  pending: PendingChatCall,
): (ApprovalDecisions & { toolOutputs: Record<string, string> }) | null {
  const last = body.messages.at(-1)!;
  if (last.role !== 'assistant') return null;
  const approve: string[] = [];
  const reject: string[] = [];
  const toolOutputs: Record<string, string> = {};
  const clientIds = new Set(pending.clientCalls.map((call) => call.callId));
  for (const part of last.parts as Array<Part & Record<string, unknown>>) {
    const callId = typeof part.toolCallId === 'string' ? part.toolCallId : '';
    const approval = part.approval as { id?: string; approved?: boolean } | undefined;
    if (approval?.id && typeof approval.approved === 'boolean') {
      (approval.approved ? approve : reject).push(approval.id);
    } else if (part.state === 'output-available' && clientIds.has(callId)) {
      toolOutputs[callId] =
        typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? null);
    }
  }
  if (approve.length + reject.length + Object.keys(toolOutputs).length === 0) return null;
  return { approve, reject, toolOutputs };
}

/** `/agencies/:name/ui-messages`. */
export function uiMessageRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.post('/:name/ui-messages', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const body = await readJson(c, uiMessagesBodySchema);
    const chatId = body.id;
    const pendingCalls = pendingCallsOf(context.registry, context.runtime);
    const pending = await pendingCalls.get(name, chatId);
    const answers = pending ? answersOf(body, pending) : null;
    const clientTools = answers && pending ? pending.clientTools : (body.tools ?? []);
    checkClientTools(agency, clientTools, 'tools');
    let start: (signal: AbortSignal) => AsyncIterable<AgencyStreamEvent>;
    const taken = answers ? await pendingCalls.take(name, chatId) : undefined;
    if (answers && taken) {
      start = (signal) => resumedStream(context, name, taken, { ...answers, clientTools, signal });
    } else {
      const message = newText(body);
      await pendingCalls.take(name, chatId); // a new message abandons a stopped call
      start = (signal) =>
        context.executor.calls.getResponseStream(name, message, {
          chatId,
          signal,
          ...(clientTools.length > 0 ? { clientTools } : {}),
        });
    }
    context.registry.chats.remember(chatId, name);
    // The call is a background run that this response follows (see streamedRun.ts); a call that
    // stops is remembered whether or not the client still follows.
    const run = await startStreamedRun(c, context, {
      agency: name,
      chatId,
      onDisconnect: body.onDisconnect,
      events: start,
      onCompleted: async (result) => {
        if (!result.interruptions || !result.state) return;
        const split = splitPending(result.interruptions, clientTools);
        await pendingCalls.set(chatId, {
          agency: name,
          state: result.state,
          clientTools,
          ...split,
        });
      },
    });
    c.header('content-type', 'text/event-stream');
    c.header('x-vercel-ai-ui-message-stream', 'v1');
    return streamWithAbort(
      c,
      async (stream, signal) => {
        // Each run event's last chunk carries its id: a client rejoins after it (Last-Event-ID).
        const send = async (chunks: UiChunk[], eventId?: number) => {
          for (const [i, chunk] of chunks.entries()) {
            const last = eventId !== undefined && i === chunks.length - 1;
            await stream.write(
              `${last ? `id: ${eventId}\n` : ''}data: ${JSON.stringify(chunk)}\n\n`,
            );
          }
        };
        const translator = new UiChunkTranslator();
        try {
          for await (const [eventId, event] of untilAborted(run.follow(signal), signal)) {
            if (signal.aborted) return;
            if (event.type === 'run_started') {
              const metadata = { colloquyRunId: run.runId };
              await send(
                [{ type: 'start', messageMetadata: metadata }, { type: 'start-step' }],
                eventId,
              );
              continue;
            }
            if (event.type === 'run_failed') {
              await send(
                [{ type: 'error', errorText: publicErrorInfo(event.error).message }],
                eventId,
              );
              return;
            }
            if (event.type === 'error') continue;
            if (event.type !== 'run_completed') {
              await send(translator.translate(event), eventId);
              continue;
            }
            const { result } = event;
            if (result.interruptions && result.state) {
              const split = splitPending(result.interruptions, clientTools);
              // A stopped call's approvals get a step of their own (the AI SDK's send-again helpers
              // look at the last step).
              if (split.approvals.length > 0) await send(translator.newStep());
              for (const call of [...split.clientCalls, ...split.approvals]) {
                await send(translator.toolCall(call.callId, call.toolName, call.arguments));
              }
              await send(
                split.approvals.map((call) => ({
                  type: 'tool-approval-request',
                  approvalId: call.callId,
                  toolCallId: call.callId,
                })),
              );
            } else {
              await send(translator.finalText(outputText(result)));
            }
            await send([
              ...translator.closeText(),
              { type: 'finish-step' },
              { type: 'finish', finishReason: result.interruptions ? 'tool-calls' : 'stop' },
            ]);
            await stream.write(`id: ${eventId}\ndata: [DONE]\n\n`);
          }
        } catch (error) {
          if (!signal.aborted) {
            await send([{ type: 'error', errorText: errorInfo(publicError(error)).message }]);
          }
        }
      },
      { inflight: context.inflight },
    );
  });
  return app;
}
