import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { requestHeader } from '../../src/server/requestHeader.js';

const NAMES = ['x-one', 'x-twice', 'content-type', 'x-absent'];

/** An app answering with what `requestHeader` and `c.req.header` read for each name. */
function headerApp(): Hono {
  const app = new Hono();
  app.all('*', (c) =>
    c.json({
      ours: Object.fromEntries(NAMES.map((n) => [n, requestHeader(c, n) ?? null])),
      web: Object.fromEntries(NAMES.map((n) => [n, c.req.header(n) ?? null])),
      onNode: (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined,
    }),
  );
  return app;
}

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Sends raw header lines (a header may repeat) to a Node server of the app. */
async function onNode(lines: string[][]): Promise<Record<string, unknown>> {
  server = serve({ fetch: headerApp().fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  await new Promise((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
    });
    for (const [name, ...values] of lines)
      req.setHeader(name!, values.length > 1 ? values : values[0]!);
    req.on('error', reject);
    req.end();
  });
}

describe('requestHeader', () => {
  it("reads Node's parsed headers on Node, the same values as the web request", async () => {
    const got = await onNode([
      ['X-One', 'a'],
      ['x-twice', 'b', 'c'],
      ['content-type', 'application/json; charset=utf-8'],
    ]);
    expect(got.onNode).toBe(true);
    expect(got.ours).toEqual({
      'x-one': 'a',
      'x-twice': 'b, c',
      'content-type': 'application/json; charset=utf-8',
      'x-absent': null,
    });
    expect(got.ours).toEqual(got.web);
  });

  it('reads the web request where there is no Node request (app.request)', async () => {
    const res = await headerApp().request('/', {
      headers: { 'x-one': 'a', 'content-type': 'text/plain' },
    });
    const got = (await res.json()) as Record<string, unknown>;
    expect(got.onNode).toBe(false);
    expect(got.ours).toEqual({
      'x-one': 'a',
      'x-twice': null,
      'content-type': 'text/plain',
      'x-absent': null,
    });
  });
});
