/** `colloquy/client`'s generic `call` and `openEvents` (what the studio reads every view through). */
import { describe, expect, it } from 'vitest';
import { ColloquyClientError, createClient } from '../../src/client.js';
import { echoAgency, listen } from '../server/helpers.js';

describe('colloquy/client call and openEvents', () => {
  it('reads and deletes through any JSON route, and streams any SSE route with its headers', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const client = createClient({ baseUrl: server.url });
    const { headers, events } = await client.openEvents('/agencies/echo/responses/stream', {
      message: 'hi',
    });
    const chatId = decodeURIComponent(headers.get('x-colloquy-chat-id') ?? '');
    expect(chatId).toMatch(/^chat_/);
    const types: string[] = [];
    for await (const event of events) types.push(event.type);
    expect(types.at(-1)).toBe('run_completed');
    const listed = await client.call<{ chats: Array<{ chatId: string; title: string }> }>(
      'GET',
      '/chats?agency=echo',
    );
    expect(listed.chats).toEqual([expect.objectContaining({ chatId, title: 'hi' })]);
    const deleted = await client.call<{ deleted: number }>(
      'DELETE',
      `/chats/${encodeURIComponent(chatId)}?agency=echo`,
    );
    expect(deleted.deleted).toBeGreaterThan(0);
    const error = (await client
      .call('GET', '/chats?agency=echo&since=soon')
      .catch((e: unknown) => e)) as ColloquyClientError;
    expect(error).toBeInstanceOf(ColloquyClientError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_BODY', path: 'since' });
    const aborted = new AbortController();
    aborted.abort();
    await expect(client.call('GET', '/agencies', undefined, aborted.signal)).rejects.toThrow();
  });
});
