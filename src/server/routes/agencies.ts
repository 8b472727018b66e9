/**
 * Agency routes: list and describe agencies, get a response (JSON) or stream one (SSE).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Agency, GetResponseOptions } from '../../agency/agency.js';
import { describeAgent } from '../../agency/agent.js';
import { agencyNamed, idSchema, newChatId, type RouteContext } from '../context.js';
import { HttpError, readJson } from '../errors.js';
import { streamEvents } from '../sse.js';

/** The body of `POST /agencies/:name/responses` and `/responses/stream`. */
export const responseBodySchema = z
  .object({
    message: z.string().min(1, 'expected a non-empty message'),
    chatId: idSchema.optional(),
    recipient: z.string().min(1).optional(),
    context: z.record(z.string(), z.unknown()).optional(),
    additionalInstructions: z.string().optional(),
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

type ResponseBody = z.output<typeof responseBodySchema>;

function callOptions(
  agency: Agency,
  body: ResponseBody,
  chatId: string,
  signal: AbortSignal,
): GetResponseOptions {
  if (body.recipient !== undefined && !agency.entryPoints.includes(body.recipient)) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `"${body.recipient}" is not an entry point of agency "${agency.name}". Use one of: ${agency.entryPoints.join(', ')}.`,
      'recipient',
    );
  }
  return {
    chatId,
    signal,
    ...(body.recipient !== undefined ? { recipient: body.recipient } : {}),
    ...(body.context !== undefined ? { context: body.context } : {}),
    ...(body.additionalInstructions !== undefined
      ? { additionalInstructions: body.additionalInstructions }
      : {}),
  };
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
    const body = await readJson(c, responseBodySchema);
    const chatId = body.chatId ?? newChatId();
    const options = callOptions(agency, body, chatId, c.req.raw.signal);
    registry.chats.remember(chatId, name);
    return c.json(await inflight.track(executor.calls.getResponse(name, body.message, options)));
  });

  app.post('/:name/responses/stream', async (c) => {
    const name = c.req.param('name');
    const agency = agencyNamed(context, name);
    const body = await readJson(c, responseBodySchema);
    const chatId = body.chatId ?? newChatId();
    callOptions(agency, body, chatId, c.req.raw.signal);
    registry.chats.remember(chatId, name);
    c.header('x-colloquy-chat-id', chatId);
    return streamEvents(
      c,
      (signal) =>
        executor.calls.getResponseStream(
          name,
          body.message,
          callOptions(agency, body, chatId, signal),
        ),
      { inflight },
    );
  });

  return app;
}
