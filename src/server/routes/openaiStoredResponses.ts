/**
 * Stored Responses API objects: every finished response (streamed ones too) is saved in the
 * agency's store as the metadata of a thread outside any chat (`colloquy-response:<id>`), so
 * `GET /v1/responses/:id` (`responses.retrieve`) answers it, after a server restart too.
 * @module
 */
import type { Hono } from 'hono';
import type { RouteContext } from '../context.js';
import { HttpError, notFound } from '../errors.js';

/** The id of the thread that keeps response `id`. */
export function responseThreadId(id: string): string {
  return `colloquy-response:${id}`;
}

/** Saves a finished response in the store of the agency it ran on. */
export async function saveResponse(
  context: RouteContext,
  agency: string,
  response: { id: string },
): Promise<void> {
  const store = context.registry.agencies.get(agency)?.threads.store;
  await store?.setMetadata(responseThreadId(response.id), { response }, null);
}

/** Adds `GET /responses/:id` to the `/v1` app; `chatIdOf` reads the chat id a response id carries. */
export function storedResponseRoute(
  app: Hono,
  context: RouteContext,
  chatIdOf: (id: string) => string,
): void {
  app.get('/responses/:id', async (c) => {
    const id = c.req.param('id');
    let chatId: string;
    try {
      chatId = chatIdOf(id);
    } catch {
      throw new HttpError(
        400,
        'INVALID_BODY',
        `"${id.slice(0, 80)}" is not a response id of this server (they look like resp_….…). Pass the id of a response it returned.`,
        'id',
      );
    }
    const missing = () =>
      notFound(
        'RESPONSE_NOT_FOUND',
        `Response "${id.slice(0, 80)}"`,
        [],
        'Only finished responses are kept; check the id.',
      );
    const { agency } = await context.registry.chats.agencyOf(chatId).catch(() => {
      throw missing();
    });
    const record = await agency.threads.store.getThread(responseThreadId(id));
    const response = record?.metadata.response;
    if (!response) throw missing();
    return c.json(response as Record<string, unknown>);
  });
}
