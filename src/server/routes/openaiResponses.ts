/**
 * `POST /v1/responses`: the OpenAI Responses API over an agency (`model` is the agency name),
 * plain JSON or SSE (`response.created` … `response.output_text.delta` … `response.completed`).
 * A response id carries its chat id, so `previous_response_id` continues that chat, even after a
 * restart; without it (or an `x-colloquy-chat-id` header) each request starts a new chat, with
 * earlier input messages folded into the message as a transcript. Calls go through the server's
 * executor, so under `serve --queue` they run on workers like every other endpoint's.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { GetResponseOptions } from '../../agency/agency.js';
import type { PendingApproval } from '../../agency/approvals.js';
import type { AgencyInput } from '../../agency/input.js';
import type { AgencyResponse } from '../../agency/result.js';
import { agencyNamed, idSchema, newChatId, type RouteContext } from '../context.js';
import { HttpError, readJson, toErrorResponse, validationError } from '../errors.js';
import {
  CHAT_ID_HEADER,
  outputText,
  plainText,
  rejectUnsupported,
  responsesUsage,
  toOutputType,
  toUserContent,
  type WirePart,
} from '../openaiInput.js';
import { checkOutput, outputError, type OutputFormat } from '../outputSchema.js';
import { v1Call } from './openaiCall.js';
import { streamWithAbort, untilAborted } from '../sse.js';
import { requestController } from '../requestAbort.js';
import {
  onDisconnectSchema,
  runFailure,
  startStreamedRun,
  type StreamedRun,
} from '../runs/streamedRun.js';
import { chatIdOfBase64url, readChatIdHeader, setChatIdHeader } from '../chatIdHeader.js';
import { saveResponse, storedResponseRoute } from './openaiStoredResponses.js';

const partsSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

/** The part of a Responses API request Colloquy reads; other fields are ignored. */
export const responsesBodySchema = z.looseObject({
  model: z.string().min(1, 'expected the name of an agency (GET /v1/models)'),
  input: z.union([
    z.string(),
    z
      .array(
        z.looseObject({
          type: z.string().optional(),
          role: z.enum(['system', 'developer', 'user', 'assistant']).optional(),
          content: partsSchema.optional(),
        }),
      )
      .min(1, 'expected at least one input item'),
  ]),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  tools: z.array(z.unknown()).nullable().optional(),
  n: z.number().int().nullable().optional(),
  user: z.string().optional(),
  text: z
    .looseObject({
      format: z
        .looseObject({
          type: z.string(),
          name: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        })
        .optional(),
    })
    .nullable()
    .optional(),
  /** Colloquy's: what the client disconnecting does to a streamed call (see streamedRun.ts). */
  onDisconnect: onDisconnectSchema,
});

type ResponsesBody = z.output<typeof responsesBodySchema>;

/** A response id that carries its chat id: `resp_<base64url chat id>.<random>`. */
export function responseIdFor(chatId: string): string {
  return `resp_${Buffer.from(chatId).toString('base64url')}.${randomUUID().replaceAll('-', '')}`;
}

/** The chat id inside a response id made by {@link responseIdFor}, or a 400. */
export function chatIdOfResponse(responseId: string): string {
  const match = /^resp_([A-Za-z0-9_-]+)\.[0-9a-f]+$/.exec(responseId);
  const chatId = match ? chatIdOfBase64url(match[1]!) : '';
  if (!match || !idSchema.safeParse(chatId).success) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `previous_response_id "${responseId.slice(0, 80)}" is not a response id of this server. Pass the id of an earlier response, or leave it out to start a new chat.`,
      'previous_response_id',
    );
  }
  return chatId;
}

/** The agency call a Responses request makes. */
function toCall(
  body: ResponsesBody,
  headerChatId: string | undefined,
): { message: AgencyInput; chatId: string; options: GetResponseOptions; format?: OutputFormat } {
  rejectUnsupported({ n: body.n }); // tools are client tools (see openaiClientTools.ts)
  if (headerChatId !== undefined) {
    const parsed = idSchema.safeParse(headerChatId);
    if (!parsed.success) throw validationError(parsed.error, `${CHAT_ID_HEADER} header`);
  }
  const continued =
    headerChatId ??
    (body.previous_response_id ? chatIdOfResponse(body.previous_response_id) : undefined);
  const items =
    typeof body.input === 'string' ? [{ role: 'user' as const, content: body.input }] : body.input;
  const lastUser = items.findLastIndex((item) => item.role === 'user');
  if (lastUser < 0) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      'The input has no user message. End the input with the user turn.',
      'input',
    );
  }
  const instructions = [
    ...(body.instructions ? [body.instructions] : []),
    ...items
      .filter((item) => item.role === 'system' || item.role === 'developer')
      .map((item) => plainText(item.content as string | WirePart[] | undefined)),
  ];
  let content = toUserContent(
    (items[lastUser]!.content ?? '') as string | WirePart[],
    `input.${lastUser}.content`,
  );
  const earlier = items
    .slice(0, lastUser)
    .filter((item) => item.role === 'user' || item.role === 'assistant');
  if (continued === undefined && earlier.length > 0) {
    const transcript = earlier
      .map((item) => `${item.role}: ${plainText(item.content as string | WirePart[])}`)
      .join('\n');
    const preface = `Earlier in this conversation:\n${transcript}\n\n`;
    content =
      typeof content === 'string'
        ? preface + content
        : [{ type: 'input_text', text: preface }, ...content];
  }
  const format = body.text?.format;
  if (format?.type === 'json_object') instructions.push('Answer with one JSON object only.');
  const outputType =
    format?.type === 'json_schema' ? toOutputType(format, 'text.format') : undefined;
  return {
    message: typeof content === 'string' ? content : [{ role: 'user', content }],
    chatId: continued ?? newChatId(),
    options: {
      ...(instructions.length > 0 ? { additionalInstructions: instructions.join('\n\n') } : {}),
      ...(outputType ? { outputType } : {}),
    },
    ...(outputType ? { format: outputType } : {}),
  };
}

/** The Responses API object of a response, finished (`result`) or in progress. */
function responseObject(
  body: ResponsesBody,
  ids: { id: string; messageId: string; created: number },
  result?: AgencyResponse,
  toolCalls: PendingApproval[] = [],
) {
  return {
    id: ids.id,
    object: 'response',
    created_at: ids.created,
    status: result ? 'completed' : 'in_progress',
    model: body.model,
    output: !result
      ? []
      : toolCalls.length > 0
        ? toolCalls.map(functionCallItem)
        : [messageItem(ids.messageId, outputText(result), 'completed')],
    usage: result ? responsesUsage(result.usage) : null,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    metadata: {},
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    temperature: null,
    top_p: null,
    tool_choice: 'auto',
    tools: [],
    text: { format: body.text?.format ?? { type: 'text' } },
    truncation: 'disabled',
  };
}

function messageItem(id: string, text: string, status: 'in_progress' | 'completed') {
  return {
    type: 'message',
    id,
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
  };
}

/** Adds `POST /responses` and `GET /responses/:id` to the `/v1` app. */
export function responsesRoute(app: Hono, context: RouteContext): void {
  storedResponseRoute(app, context, chatIdOfResponse);
  app.post('/responses', async (c) => {
    const body = await readJson(c, responsesBodySchema);
    const call = await v1Call(context, {
      model: body.model,
      agency: agencyNamed(context, body.model),
      tools: body.tools,
      outputs: functionOutputsOf(body),
      outputsField: 'input',
      fresh: () => toCall(body, readChatIdHeader(c)),
    });
    const { chatId, format, stopped } = call;
    context.registry.chats.remember(chatId, body.model);
    setChatIdHeader(c, chatId);
    const ids = {
      id: responseIdFor(chatId),
      messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      created: Math.floor(Date.now() / 1000),
    };
    if (!body.stream) {
      const controller = requestController(c);
      const result = await context.inflight
        .track(call.run(controller.signal, controller))
        .catch((error: unknown) => {
          throw outputError(error, format);
        });
      const toolCalls = await stopped(result);
      if (format && toolCalls.length === 0) checkOutput(result.finalOutput, format);
      const response = responseObject(body, ids, result, toolCalls);
      await saveResponse(context, body.model, response);
      return c.json(response);
    }
    let toolCalls: PendingApproval[] = [];
    // The call is a background run that this response follows (see streamedRun.ts); the
    // response is stored when the call completes, whether or not the client still follows.
    const run = await startStreamedRun(c, context, {
      agency: body.model,
      chatId,
      onDisconnect: body.onDisconnect,
      events: call.events,
      onCompleted: async (result) => {
        toolCalls = await stopped(result);
        if (format && toolCalls.length === 0) checkOutput(result.finalOutput, format);
        await saveResponse(context, body.model, responseObject(body, ids, result, toolCalls));
      },
    });
    return streamResponse(c, context, body, { ...ids, runId: run.runId }, format, {
      run,
      toolCalls: () => toolCalls,
    });
  });
}

/** The outputs of client tool calls in the input (`function_call_output` items), by call id. */
function functionOutputsOf(body: ResponsesBody): Record<string, string> | null {
  if (typeof body.input === 'string') return null;
  const outputs: Record<string, string> = {};
  for (const item of body.input as Array<Record<string, unknown>>) {
    if (item.type === 'function_call_output' && typeof item.call_id === 'string') {
      outputs[item.call_id] =
        typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? null);
    }
  }
  return Object.keys(outputs).length > 0 ? outputs : null;
}

/** A stopped client tool call as a Responses `function_call` item. */
function functionCallItem(call: PendingApproval) {
  return {
    type: 'function_call',
    id: `fc_${call.callId}`,
    call_id: call.callId,
    name: call.toolName,
    arguments: call.arguments,
    status: 'completed',
  };
}

function streamResponse(
  c: Context,
  context: RouteContext,
  body: ResponsesBody,
  ids: { id: string; messageId: string; created: number; runId: string },
  format: OutputFormat | undefined,
  { run, toolCalls }: { run: StreamedRun; toolCalls: () => PendingApproval[] },
): Response {
  return streamWithAbort(
    c,
    async (stream, signal) => {
      let sequence = 0;
      // Each run event's last wire event carries its id: a client rejoins after it (Last-Event-ID).
      const send = (type: string, fields: Record<string, unknown>, eventId?: number) =>
        stream.writeSSE({
          event: type,
          data: JSON.stringify({ type, sequence_number: sequence++, ...fields }),
          ...(eventId !== undefined ? { id: String(eventId) } : {}),
        });
      const at = { item_id: ids.messageId, output_index: 0, content_index: 0 };
      // The run id rides in the metadata of the response as it starts.
      const started = { ...responseObject(body, ids), metadata: { colloquy_run_id: ids.runId } };
      let streamed = '';
      try {
        for await (const [eventId, event] of untilAborted(run.follow(signal), signal)) {
          if (signal.aborted) return;
          if (event.type === 'run_started') {
            await send('response.created', { response: started });
            await send('response.in_progress', { response: started });
            await send('response.output_item.added', {
              output_index: 0,
              item: messageItem(ids.messageId, '', 'in_progress'),
            });
            await send(
              'response.content_part.added',
              { ...at, part: { type: 'output_text', text: '', annotations: [] } },
              eventId,
            );
          } else if (
            event.type === 'raw_model_stream_event' &&
            event.depth === 0 &&
            event.data.type === 'output_text_delta'
          ) {
            streamed += event.data.delta;
            await send(
              'response.output_text.delta',
              { ...at, delta: event.data.delta, logprobs: [] },
              eventId,
            );
          } else if (event.type === 'run_completed') {
            const calls = toolCalls();
            if (calls.length > 0) {
              for (const [i, tc] of calls.entries()) {
                const item = functionCallItem(tc);
                await send('response.output_item.added', { output_index: i + 1, item });
                await send('response.output_item.done', { output_index: i + 1, item });
              }
              const done = responseObject(body, ids, event.result, calls);
              await send('response.completed', { response: done }, eventId);
              continue;
            }
            const text = outputText(event.result);
            if (streamed === '' && text !== '') {
              await send('response.output_text.delta', { ...at, delta: text, logprobs: [] });
            }
            const part = { type: 'output_text', text, annotations: [] };
            await send('response.output_text.done', { ...at, text, logprobs: [] });
            await send('response.content_part.done', { ...at, part });
            await send('response.output_item.done', {
              output_index: 0,
              item: messageItem(ids.messageId, text, 'completed'),
            });
            const done = responseObject(body, ids, event.result);
            await send('response.completed', { response: done }, eventId);
          } else if (event.type === 'run_failed') {
            throw runFailure(event.error);
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        const { body: errorBody } = toErrorResponse(outputError(error, format));
        await send('error', {
          code: errorBody.error.code,
          message: errorBody.error.message,
          param: null,
        });
      }
    },
    { inflight: context.inflight },
  );
}
