import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { frameHeaders } from '../../src/server/frameHeaders.js';

/** Routes answering with no policy, their own policy, their own frame-ancestors, and an error. */
function framedApp(): Hono {
  const app = new Hono();
  app.use('*', frameHeaders());
  app.get('/plain', (c) => c.json({ ok: true }));
  app.get('/own-policy', (c) => {
    c.header('Content-Security-Policy', "default-src 'none'");
    c.header('X-Frame-Options', 'DENY');
    return c.json({ ok: true });
  });
  app.get('/own-ancestors', () =>
    Response.json(
      { ok: true },
      {
        headers: { 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' },
      },
    ),
  );
  app.get('/error', () => {
    throw new Error('boom');
  });
  return app;
}

const EXPECTED: Record<string, { csp: string; status: number }> = {
  '/plain': { csp: "frame-ancestors 'self'", status: 200 },
  '/own-policy': { csp: "default-src 'none'; frame-ancestors 'self'", status: 200 },
  '/own-ancestors': { csp: "frame-ancestors 'none'", status: 200 },
  '/error': { csp: "frame-ancestors 'self'", status: 500 },
  '/missing': { csp: "frame-ancestors 'self'", status: 404 },
};

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** The raw header lines of a response from a Node server of the app (repeats kept). */
async function rawHeaders(path: string): Promise<{ status: number; lines: string[] }> {
  server ??= serve({ fetch: framedApp().fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  if (!server.listening) await new Promise((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, lines: res.rawHeaders }));
      })
      .on('error', reject);
  });
}

describe('frameHeaders', () => {
  it('on Node, sends one policy with frame-ancestors and X-Frame-Options SAMEORIGIN, a route policy completed', async () => {
    for (const [path, expected] of Object.entries(EXPECTED)) {
      const { status, lines } = await rawHeaders(path);
      const values = (name: string) =>
        lines.filter((_, i) => i % 2 === 1 && lines[i - 1]!.toLowerCase() === name);
      expect(status, path).toBe(expected.status);
      expect(values('content-security-policy'), path).toEqual([expected.csp]);
      expect(values('x-frame-options'), path).toEqual(['SAMEORIGIN']);
    }
  });

  it('without Node (app.request), adds the same headers to the route response', async () => {
    const app = framedApp();
    for (const [path, expected] of Object.entries(EXPECTED)) {
      const res = await app.request(path);
      expect(res.status, path).toBe(expected.status);
      expect(res.headers.get('content-security-policy'), path).toBe(expected.csp);
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });
});
