/**
 * Agency routes: list and describe agencies, get a response (JSON) or stream one (SSE), cancel
 * the calls running on a chat (`DELETE /agencies/:name/chats/:chatId/calls`).
 * @module
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  attachmentSchema,
  callOptionsSchema,
  serialisableCallOptions,
} from '../../agency/callOptions.js';
import type { Agency } from '../../agency/agency.js';
import { describeAgent } from '../../agency/agent.js';
import { agencyNamed, idSchema, newChatId, type RouteContext } from '../context.js';
import { requestHeader } from '../requestHeader.js';
import { requestController } from '../requestAbort.js';
import type { ExecutorCallOptions } from '../executor.js';
import { mediaTypeOf, type AgencyInput } from '../../agency/input.js';
import { toUserContent, type WirePart } from '../openaiInput.js';
import { HttpError, readJson, validationError } from '../errors.js';
import { streamEvents } from '../sse.js';
import { setChatIdHeader } from '../chatIdHeader.js';
import type { ErrorInfo } from '../../errors.js';
import type { CallRunEvent } from '../runs/runLog.js';
import { onDisconnectSchema, startStreamedRun } from '../runs/streamedRun.js';

export { attachmentSchema };

/**
 * The body of `POST /agencies/:name/responses` and `/responses/stream`: the message and the
 * serialisable call options ({@link callOptionsSchema}, where new per-call options are added).
 * `maxTurns` and `outputType` are not taken over HTTP.
 */
export const responseBodySchema = callOptionsSchema
  .omit({ maxTurns: true, outputType: true })
  .extend({
    message: z.union([
      z.string().min(1, 'expected a non-empty message'),
      z
        .array(
          z.looseObject({
            role: z.literal('user'),
            content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
          }),
        )
        .min(1, 'expected at least one user message item'),
    ]),
    chatId: idSchema.optional(),
    context: z.record(z.string(), z.unknown()).optional(),
    /** Streaming routes: what the client disconnecting does to the call (see streamedRun.ts). */
    onDisconnect: onDisconnectSchema,
  })
  .strict();

/** The graph of an agency, as `GET /agencies/:name` answers it. */
export function describeAgency(name: string, agency: Agency) {
  return {
    name,
    entryPoints: [...agency.entryPoints],
    agents: [...agency.agents.values()].map((agent) => ({
      name: agent.name,
      description: describeAgent(agent),
      tools: agent.tools.map((tool) => tool.name),
      recipients: [...agency.recipientsOf(agent.name)],
    })),
    flows: agency.flows,
  };
}

/** A parsed {@link responseBodySchema}. */
export type ResponseBody = z.output<typeof responseBodySchema>;

/** The agency call options of a response body (a 400 for a recipient that is not an entry point). */
export function callOptions(
  agency: Agency,
  body: ResponseBody,
  chatId: string,
  signal: AbortSignal,
  controller?: AbortController,
): ExecutorCallOptions {
  if (body.recipient !== undefined && !agency.entryPoints.includes(body.recipient)) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `"${body.recipient}" is not an entry point of agency "${agency.name}". Use one of: ${agency.entryPoints.join(', ')}.`,
      'recipient',
    );
  }
  const options: ExecutorCallOptions = serialisableCallOptions(body);
  options.chatId = chatId;
  options.signal = signal;
  if (controller) options.controller = controller;
  return options;
}

/** The message as agency input: text, or user items whose parts become SDK parts. */
export function inputOf(body: ResponseBody): AgencyInput {
  if (typeof body.message === 'string') return body.message;
  return body.message.map((item, i) => ({
    role: 'user' as const,
    content: toUserContent(item.content as string | WirePart[], `message.${i}.content`),
  }));
}

/**
 * The request body: JSON, or `multipart/form-data` with the same fields as text (`message`,
 * `chatId`, `recipient`, `additionalInstructions`) and the files to attach under `files`.
 */
export async function readBody(c: Context): Promise<ResponseBody> {
  if (!(requestHeader(c, 'content-type') ?? '').startsWith('multipart/form-data')) {
    return readJson(c, responseBodySchema);
  }
  const form = await c.req.parseBody({ all: true }).catch((error: unknown) => {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `The multipart body could not be read (${(error as Error).message}). Send multipart/form-data with its boundary, or a JSON body.`,
      { cause: error },
    );
  });
  const files = ([] as unknown[]).concat(form.files ?? []);
  const attachments = await Promise.all(
    files.map(async (file, i) => {
      if (!(file instanceof File)) {
        throw new HttpError(400, 'INVALID_BODY', `files.${i} must be a file upload.`, `files.${i}`);
      }
      return {
        data: Buffer.from(await file.arrayBuffer()).toString('base64'),
        mediaType: file.type || mediaTypeOf(file.name),
        filename: file.name,
      };
    }),
  );
  const fields = Object.fromEntries(
    Object.entries(form).filter(([key, value]) => key !== 'files' && typeof value === 'string'),
  );
  const parsed = responseBodySchema.safeParse({
    ...fields,
    ...(attachments.length > 0 ? { attachments } : {}),
  });
  if (!parsed.success) throw validationError(parsed.error, 'form');
  return parsed.data;
}

/**
 * The run's events as this route always sent them: a failed run ends with an `error` event (with
 * the run's `status`) where `GET /runs/:id/events` says `run_failed`, under the same id.
 */
async function* failuresAsErrors(
  events: AsyncIterable<[number, CallRunEvent]>,
): AsyncGenerator<[number, CallRunEvent | { type: 'error'; status: string; error: ErrorInfo }]> {
  for await (const [id, event] of events) {
    yield event.type === 'run_failed'
      ? [id, { type: 'error', status: event.status, error: event.error }]
      : [id, event];
  }
}

/** `/agencies` routes. */
export function agencyRoutes(context: RouteContext): Hono {
  const app = new Hono();
  const { registry, inflight, executor } = context;

  app.get('/', (c) =>
    c.json({
      agencies: [...registry.agencies].map(([name, agency]) => ({
        name,
        entryPoints: [...agency.entryPoints],
        agents: [...agency.agents.keys()],
      })),
    }),
  );

  app.get('/:name', (c) =>
    c.json(describeAgency(c.req.param('name'), agencyNamed(context, c.req.param('name')))),
  );

  app.post('/:name/responses', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const body = await readBody(c);
    const chatId = body.chatId ?? newChatId();
    // The call's only controller, aborted if the client goes away (see requestAbort.ts).
    const controller = requestController(c);
    const options = callOptions(agency, body, chatId, controller.signal, controller);
    registry.chats.remember(chatId, name);
    return c.json(await inflight.track(executor.calls.getResponse(name, inputOf(body), options)));
  });

  app.post('/:name/responses/stream', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const body = await readBody(c);
    const chatId = body.chatId ?? newChatId();
    callOptions(agency, body, chatId, c.req.raw.signal);
    registry.chats.remember(chatId, name);
    setChatIdHeader(c, chatId);
    const message = inputOf(body);
    // The call is a background run that this response follows (see streamedRun.ts).
    const run = await startStreamedRun(c, context, {
      agency: name,
      chatId,
      onDisconnect: body.onDisconnect,
      events: (signal) =>
        executor.calls.getResponseStream(name, message, callOptions(agency, body, chatId, signal)),
    });
    return streamEvents(c, (signal) => failuresAsErrors(run.follow(signal)), { inflight });
  });

  app.delete('/:name/chats/:chatId/calls', async (c) => {
    const name = c.req.param('name');
    agencyNamed(context, name);
    const chatId = c.req.param('chatId');
    const parsed = idSchema.safeParse(chatId);
    if (!parsed.success) throw validationError(parsed.error, 'chatId');
    const cancelled = await executor.calls.cancel(
      name,
      chatId,
      `The call was cancelled (DELETE /agencies/${name}/chats/${chatId}/calls).`,
    );
    return c.json({ chatId, cancelled });
  });

  return app;
}
