/**
 * The OpenAI-compatible endpoint: `GET /v1/models` lists the agencies, `POST /v1/chat/completions`
 * with `model: <agency name>` sends the last user message to the agency (JSON, or SSE
 * `chat.completion.chunk`s of the entry point's text ending with `[DONE]`). The agency keeps the
 * history by chat id: from the `x-colloquy-chat-id` header, else the `user` field; without either
 * the request starts a new chat, with the earlier messages folded into the message.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { GetResponseOptions } from '../../agency/agency.js';
import type { AgencyInput } from '../../agency/input.js';
import type { PendingApproval } from '../../agency/approvals.js';
import type { AgencyResponse } from '../../agency/result.js';
import type { Usage } from '../../usage.js';
import { agencyNamed, idSchema, newChatId, type RouteContext } from '../context.js';
import { HttpError, readJson, toErrorResponse, validationError } from '../errors.js';
import {
  CHAT_ID_HEADER,
  outputText,
  plainText,
  rejectUnsupported,
  toOutputType,
  toUserContent,
  type WirePart,
} from '../openaiInput.js';
import { checkOutput, outputError, type OutputFormat } from '../outputSchema.js';
import { completionChunks } from './completionChunks.js';
import { v1Call } from './openaiCall.js';
import { onDisconnectSchema, runFailure, startStreamedRun } from '../runs/streamedRun.js';
import { sseData, streamRun } from '../runs/runStream.js';
import { readChatIdHeader, setChatIdHeader } from '../chatIdHeader.js';
import { requestController } from '../requestAbort.js';
import { responsesRoute } from './openaiResponses.js';

export { CHAT_ID_HEADER };

const contentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

const responseFormatSchema = z.union([
  z.looseObject({ type: z.enum(['text', 'json_object']) }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

/** The part of the OpenAI chat completion request Colloquy reads; other fields are ignored. */
export const chatCompletionBodySchema = z.looseObject({
  model: z.string().min(1, 'expected the name of an agency (GET /v1/models)'),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
        content: contentSchema.nullable().optional(),
      }),
    )
    .min(1, 'expected at least one message'),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  user: z.string().optional(),
  response_format: responseFormatSchema.nullable().optional(),
  tools: z.array(z.unknown()).nullable().optional(),
  n: z.number().int().nullable().optional(),
  /** Colloquy's: what the client disconnecting does to a streamed call (see streamedRun.ts). */
  onDisconnect: onDisconnectSchema,
});

type ChatBody = z.output<typeof chatCompletionBodySchema>;

const textOf = (content: ChatBody['messages'][number]['content']): string =>
  plainText(content as string | WirePart[] | null | undefined);

/** The message and options of the agency call a chat completion request makes. */
function toCall(
  body: ChatBody,
  headerChatId: string | undefined,
): { message: AgencyInput; chatId: string; options: GetResponseOptions; format?: OutputFormat } {
  rejectUnsupported({ n: body.n }); // tools are client tools (see openaiClientTools.ts)
  const index = body.messages.length - 1;
  const last = body.messages[index]!;
  const hasParts = Array.isArray(last.content) && last.content.length > 0;
  if (last.role !== 'user' || (!hasParts && textOf(last.content).trim() === '')) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `The last message must be a non-empty user message (got role "${last.role}"). End messages with the user's turn.`,
      `messages.${index}`,
    );
  }
  const given = headerChatId ?? body.user;
  if (given !== undefined) {
    const parsed = idSchema.safeParse(given);
    if (!parsed.success)
      throw validationError(
        parsed.error,
        headerChatId !== undefined ? `${CHAT_ID_HEADER} header` : '"user" field',
      );
  }
  const instructions = body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content));
  const earlier = body.messages
    .slice(0, index)
    .filter((m) => m.role === 'user' || m.role === 'assistant');
  let content = toUserContent(
    (last.content ?? '') as string | WirePart[],
    `messages.${index}.content`,
  );
  if (given === undefined && earlier.length > 0) {
    const transcript = earlier.map((m) => `${m.role}: ${textOf(m.content)}`).join('\n');
    const preface = `Earlier in this conversation:\n${transcript}\n\n`;
    content =
      typeof content === 'string'
        ? preface + content
        : [{ type: 'input_text', text: preface }, ...content];
  }
  const format = body.response_format;
  if (format?.type === 'json_object') instructions.push('Answer with one JSON object only.');
  const outputType =
    format?.type === 'json_schema'
      ? toOutputType(format.json_schema, 'response_format.json_schema')
      : undefined;
  const options: GetResponseOptions = {
    ...(instructions.length > 0 ? { additionalInstructions: instructions.join('\n\n') } : {}),
    ...(outputType ? { outputType } : {}),
  };
  return {
    message: typeof content === 'string' ? content : [{ role: 'user', content }],
    chatId: given ?? newChatId(),
    options,
    ...(outputType ? { format: outputType } : {}),
  };
}

/** The results of the client's tool calls: the `tool` messages after the last assistant one. */
function toolResultsOf(body: ChatBody): Record<string, string> | null {
  const outputs: Record<string, string> = {};
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i]!.role === 'tool'; i--) {
    const message = body.messages[i]! as { tool_call_id?: unknown; content?: unknown };
    if (typeof message.tool_call_id === 'string') {
      outputs[message.tool_call_id] = textOf(
        message.content as ChatBody['messages'][number]['content'],
      );
    }
  }
  return Object.keys(outputs).length > 0 ? outputs : null;
}

/** A stopped client tool call in the chat completion shape. */
function wireToolCall(call: PendingApproval) {
  return {
    id: call.callId,
    type: 'function' as const,
    function: { name: call.toolName, arguments: call.arguments },
  };
}

function usageOf(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

/** `/v1` routes. */
export function openaiRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const created = Math.floor(Date.now() / 1000);

  app.get('/models', (c) =>
    c.json({
      object: 'list',
      data: [...context.registry.agencies.keys()].map((id) => ({
        id,
        object: 'model',
        created,
        owned_by: 'colloquy',
      })),
    }),
  );

  app.get('/models/:id', (c) => {
    const id = c.req.param('id');
    agencyNamed(context, id);
    return c.json({ id, object: 'model', created, owned_by: 'colloquy' });
  });

  responsesRoute(app, context);

  app.post('/chat/completions', async (c) => {
    const body = await readJson(c, chatCompletionBodySchema);
    const agency = agencyNamed(context, body.model); // a 404 for an unknown agency, before anything runs
    const call = await v1Call(context, {
      model: body.model,
      agency,
      tools: body.tools,
      outputs: toolResultsOf(body),
      outputsField: 'messages',
      fresh: () => toCall(body, readChatIdHeader(c)),
    });
    const { chatId, format, stopped } = call;
    context.registry.chats.remember(chatId, body.model);
    setChatIdHeader(c, chatId);
    const id = `chatcmpl-${randomUUID()}`;
    const now = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      // The call's only controller, aborted if the client goes away (see requestAbort.ts).
      const controller = requestController(c);
      const result = await context.inflight
        .track(call.run(controller.signal, controller))
        .catch((error: unknown) => {
          throw outputError(error, format);
        });
      const toolCalls = await stopped(result);
      if (format && toolCalls.length === 0) checkOutput(result.finalOutput, format);
      return c.json({
        id,
        object: 'chat.completion',
        created: now,
        model: body.model,
        choices: [
          {
            index: 0,
            message:
              toolCalls.length > 0
                ? {
                    role: 'assistant',
                    content: null,
                    refusal: null,
                    tool_calls: toolCalls.map(wireToolCall),
                  }
                : { role: 'assistant', content: outputText(result), refusal: null },
            finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
            logprobs: null,
          },
        ],
        usage: usageOf(result.usage),
      });
    }
    let toolCalls: PendingApproval[] = [];
    // The call is a background run that this response follows (see streamedRun.ts).
    const run = await startStreamedRun(c, context, {
      agency: body.model,
      chatId,
      onDisconnect: body.onDisconnect,
      events: call.events,
      onCompleted: async (result) => {
        toolCalls = await stopped(result);
      },
    });
    const chunks = completionChunks(id, now, body.model);
    let streamed = false;
    /** The chunks of the run's end: tool calls or the output (unless streamed), finish, usage, `[DONE]`. */
    const lastChunks = (eventId: number, result: AgencyResponse): string => {
      let text: string;
      if (toolCalls.length > 0) {
        const deltas = toolCalls.map((tc, index) => ({ index, ...wireToolCall(tc) }));
        text = sseData(chunks.chunk({ tool_calls: deltas }));
      } else {
        if (format) checkOutput(result.finalOutput, format);
        text = streamed ? '' : sseData(chunks.text(outputText(result)));
      }
      const usage = body.stream_options?.include_usage;
      const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
      text += sseData(chunks.chunk({}, finish), usage ? undefined : eventId);
      if (usage) {
        const last = {
          id,
          object: 'chat.completion.chunk',
          created: now,
          model: body.model,
          choices: [],
          usage: usageOf(result.usage),
        };
        text += sseData(JSON.stringify(last), eventId);
      }
      return text + sseData('[DONE]');
    };
    // Each run event's last chunk carries its id: a client rejoins after it (Last-Event-ID).
    return streamRun(
      c,
      run,
      {
        event(eventId, event) {
          switch (event.type) {
            case 'run_started':
              return sseData(chunks.first(run.runId), eventId);
            case 'raw_model_stream_event':
              if (event.depth !== 0 || event.data.type !== 'output_text_delta') return '';
              streamed = true;
              return sseData(chunks.text(event.data.delta), eventId);
            case 'run_completed':
              return lastChunks(eventId, event.result);
            case 'run_failed':
              throw runFailure(event.error);
            default:
              return '';
          }
        },
        error: (error) => sseData(JSON.stringify(toErrorResponse(outputError(error, format)).body)),
      },
      { inflight: context.inflight },
    );
  });

  return app;
}
