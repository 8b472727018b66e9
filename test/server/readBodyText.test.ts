import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import http, { type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBodyText } from '../../src/server/requestHeader.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A Node server whose route reads the body twice: with readBodyText, then with Hono's reader. */
async function echoServer(): Promise<number> {
  const app = new Hono();
  app.post('/echo', async (c) => {
    const text = await readBodyText(c);
    const again = await c.req.text();
    const incoming = (c.env as { incoming: IncomingMessage }).incoming;
    return c.json({ text, again, fromBuffer: incoming.readableDidRead });
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** Posts `parts` (written one by one, the next once the server has the previous) to /echo. */
function post(
  port: number,
  parts: Array<string | Buffer>,
  headers: Record<string, string | number>,
): Promise<{ text: string; again: string; fromBuffer: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/echo', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(JSON.parse(body)));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    const write = (i: number): void => {
      if (i === parts.length) return void req.end();
      req.write(parts[i], () => setImmediate(() => write(i + 1)));
    };
    write(0);
  });
}

describe('readBodyText', () => {
  it('reads a body with Content-Length, whole or in parts, and Hono reads the same after it', async () => {
    const port = await echoServer();
    const body = JSON.stringify({ message: 'héllo ☃' });
    const length = Buffer.byteLength(body);
    const whole = await post(port, [body], { 'content-length': length });
    expect(whole).toEqual({ text: body, again: body, fromBuffer: true });
    const bytes = Buffer.from(body);
    const split = await post(port, [bytes.subarray(0, 5), bytes.subarray(5)], {
      'content-length': length,
    });
    expect(split).toMatchObject({ text: body, again: body });
    expect(await post(port, [], { 'content-length': 0 })).toMatchObject({ text: '', again: '' });
  });

  it('drops a byte order mark and reads a chunked body, as Request.text() does', async () => {
    const port = await echoServer();
    const bom = await post(port, ['\uFEFF{"a":1}'], { 'content-length': 10 });
    expect(bom).toMatchObject({ text: '{"a":1}', again: '{"a":1}' });
    const chunked = await post(port, ['{"a":', '2}'], { 'transfer-encoding': 'chunked' });
    expect(chunked).toMatchObject({ text: '{"a":2}', again: '{"a":2}' });
  });

  it('reads the web request off Node (app.request)', async () => {
    const app = new Hono();
    app.post('/echo', async (c) => c.text(await readBodyText(c)));
    const res = await app.request('/echo', { method: 'POST', body: '{"b":true}' });
    expect(await res.text()).toBe('{"b":true}');
  });
});
