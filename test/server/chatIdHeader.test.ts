import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nodeHeaders } from '../support/nodeHeaders.js';
import {
  CHAT_ID_HEADER,
  encodeChatIdHeader,
  setChatIdHeader,
} from '../../src/server/chatIdHeader.js';

const CHAT = 'chat é 💬';

/** A route setting the chat id header, then answering or failing. */
function chatApp(): Hono {
  const app = new Hono();
  app.get('/ok', (c) => {
    setChatIdHeader(c, CHAT);
    return c.json({ ok: true });
  });
  app.get('/fails', (c) => {
    setChatIdHeader(c, CHAT);
    throw new Error('after the header');
  });
  app.onError((_error, c) => c.json({ error: 'failed' }, 500));
  return app;
}

const onNode = nodeHeaders(chatApp);

describe('setChatIdHeader', () => {
  it('sends the encoded chat id once on Node, on answers and on errors after it', async () => {
    expect(await onNode('/ok', CHAT_ID_HEADER)).toEqual({
      status: 200,
      values: [encodeChatIdHeader(CHAT)],
    });
    expect(await onNode('/fails', CHAT_ID_HEADER)).toEqual({
      status: 500,
      values: [encodeChatIdHeader(CHAT)],
    });
  });

  it('sets it on the route response without Node (app.request)', async () => {
    for (const [path, status] of [
      ['/ok', 200],
      ['/fails', 500],
    ] as const) {
      const res = await chatApp().request(path);
      expect(res.status).toBe(status);
      expect(res.headers.get(CHAT_ID_HEADER)).toBe(encodeChatIdHeader(CHAT));
    }
  });
});
