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
import type { UsageSummary } from '../../agency/result.js';
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
import { streamWithAbort, untilAborted } from '../sse.js';
import { readChatIdHeader, setChatIdHeader } from '../chatIdHeader.js';
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
});

type ChatBody = z.output<typeof chatCompletionBodySchema>;

const textOf = (content: ChatBody['messages'][number]['content']): string =>
  plainText(content as string | WirePart[] | null | undefined);

/** The message and options of the agency call a chat completion request makes. */
function toCall(
  body: ChatBody,
  headerChatId: string | undefined,
): { message: AgencyInput; chatId: string; options: GetResponseOptions } {
  rejectUnsupported(body);
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
  const options: GetResponseOptions = {
    ...(instructions.length > 0 ? { additionalInstructions: instructions.join('\n\n') } : {}),
    ...(format?.type === 'json_schema'
      ? { outputType: toOutputType(format.json_schema, 'response_format.json_schema') }
      : {}),
  };
  return {
    message: typeof content === 'string' ? content : [{ role: 'user', content }],
    chatId: given ?? newChatId(),
    options,
  };
}

function usageOf(usage: UsageSummary) {
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
    agencyNamed(context, body.model); // a 404 for an unknown agency, before anything runs
    const { message, chatId, options } = toCall(body, readChatIdHeader(c));
    context.registry.chats.remember(chatId, body.model);
    setChatIdHeader(c, chatId);
    const id = `chatcmpl-${randomUUID()}`;
    const now = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      const result = await context.inflight.track(
        context.executor.calls.getResponse(body.model, message, {
          ...options,
          chatId,
          signal: c.req.raw.signal,
        }),
      );
      return c.json({
        id,
        object: 'chat.completion',
        created: now,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: outputText(result), refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: usageOf(result.usage),
      });
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created: now,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    return streamWithAbort(
      c,
      async (stream, signal) => {
        const send = (data: unknown) => stream.writeSSE({ data: JSON.stringify(data) });
        await send(chunk({ role: 'assistant', content: '' }));
        let streamed = false;
        try {
          for await (const event of untilAborted(
            context.executor.calls.getResponseStream(body.model, message, {
              ...options,
              chatId,
              signal,
            }),
            signal,
          )) {
            if (signal.aborted) return;
            if (
              event.type === 'raw_model_stream_event' &&
              event.depth === 0 &&
              event.data.type === 'output_text_delta'
            ) {
              streamed = true;
              await send(chunk({ content: event.data.delta }));
            } else if (event.type === 'run_completed') {
              if (!streamed) await send(chunk({ content: outputText(event.result) }));
              await send(chunk({}, 'stop'));
              if (body.stream_options?.include_usage) {
                await send({
                  id,
                  object: 'chat.completion.chunk',
                  created: now,
                  model: body.model,
                  choices: [],
                  usage: usageOf(event.result.usage),
                });
              }
              await stream.writeSSE({ data: '[DONE]' });
            }
          }
        } catch (error) {
          if (!signal.aborted) await send(toErrorResponse(error).body);
        }
      },
      { inflight: context.inflight },
    );
  });

  return app;
}
