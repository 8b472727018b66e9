import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
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

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function onNode(path: string): Promise<{ status: number; values: string[] }> {
  server ??= serve({ fetch: chatApp().fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  if (!server.listening) await new Promise((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        res.resume();
        const lines = res.rawHeaders;
        const values = lines.filter(
          (_, i) => i % 2 === 1 && lines[i - 1]!.toLowerCase() === CHAT_ID_HEADER,
        );
        res.on('end', () => resolve({ status: res.statusCode ?? 0, values }));
      })
      .on('error', reject);
  });
}

describe('setChatIdHeader', () => {
  it('sends the encoded chat id once on Node, on answers and on errors after it', async () => {
    expect(await onNode('/ok')).toEqual({ status: 200, values: [encodeChatIdHeader(CHAT)] });
    expect(await onNode('/fails')).toEqual({ status: 500, values: [encodeChatIdHeader(CHAT)] });
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
