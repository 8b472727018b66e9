import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nodeHeaders } from '../support/nodeHeaders.js';
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

const onNode = nodeHeaders(framedApp);

describe('frameHeaders', () => {
  it('on Node, sends one policy with frame-ancestors and X-Frame-Options SAMEORIGIN, a route policy completed', async () => {
    for (const [path, expected] of Object.entries(EXPECTED)) {
      const csp = await onNode(path, 'content-security-policy');
      expect(csp.status, path).toBe(expected.status);
      expect(csp.values, path).toEqual([expected.csp]);
      expect((await onNode(path, 'x-frame-options')).values, path).toEqual(['SAMEORIGIN']);
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
