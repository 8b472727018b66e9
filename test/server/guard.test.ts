import { Hono } from 'hono';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bodyGuard, requestGuard } from '../../src/server/guard.js';
import { InFlight } from '../../src/server/inflight.js';

/** An app with both guards around a route that reports the in-flight count while it runs. */
function guarded(inflight: InFlight, lines: Array<Record<string, unknown>> = []) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  const app = new Hono();
  app.onError((_error, c) => c.json({ error: { code: 'BOOM' } }, 500)); // the thrown route's answer
  app.use('*', requestGuard({ inflight, logger: () => logger }));
  app.use(
    '*',
    bodyGuard({ maxSize: 10, onError: (c) => c.json({ error: { code: 'TOO_LARGE' } }, 413) }),
  );
  app.post('/count', (c) => c.json({ running: inflight.size }));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  return app;
}

const post = (body: string, type = 'application/json') => ({
  method: 'POST',
  headers: { 'content-type': type, host: 'localhost' },
  body,
});

describe('requestGuard and bodyGuard', () => {
  it('count a request in flight while its route runs, and not after, even when it throws', async () => {
    const inflight = new InFlight();
    const app = guarded(inflight);
    const res = await app.request('/count', post('{}'));
    expect(await res.json()).toEqual({ running: 1 });
    expect(inflight.size).toBe(0);
    expect((await app.request('/boom', { headers: { host: 'localhost' } })).status).toBe(500);
    expect(inflight.size).toBe(0);
  });

  it('log and frame every answer: the route, a refusal of each check, and the 503 of a draining server', async () => {
    const inflight = new InFlight();
    const lines: Array<Record<string, unknown>> = [];
    const app = guarded(inflight, lines);
    const answers = [
      await app.request('/count', post('{}')),
      await app.request('/count', { ...post('{}'), headers: { host: 'evil.example' } }),
      await app.request('/count', {
        ...post('{}'),
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          origin: 'https://evil.example',
        },
      }),
      await app.request('/count', post('x', 'text/plain')),
      await app.request('/count', post('{"message":"far too long"}')),
    ];
    inflight.drain();
    answers.push(await app.request('/count', post('{}')));
    expect(answers.map((r) => r.status)).toEqual([200, 403, 403, 415, 413, 503]);
    for (const r of answers) {
      expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(r.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    }
    expect(answers[5]!.headers.get('connection')).toBe('close');
    expect(lines.map((l) => [l.status, l.code])).toEqual([
      [200, undefined],
      [403, 'HOST_NOT_ALLOWED'],
      [403, 'CROSS_ORIGIN_REFUSED'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [413, 'TOO_LARGE'],
      [503, 'SHUTTING_DOWN'],
    ]);
  });

  it('refuse a foreign Host after an allowed one (the allowed Host it remembers is not a pass)', async () => {
    const app = guarded(new InFlight());
    expect((await app.request('/count', post('{}'))).status).toBe(200);
    const foreign = await app.request('/count', {
      ...post('{}'),
      headers: { host: 'evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect((await app.request('/count', post('{}'))).status).toBe(200);
  });
});
