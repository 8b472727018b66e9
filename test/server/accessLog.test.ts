import { Hono } from 'hono';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessLog } from '../../src/server/accessLog.js';

describe('accessLog', () => {
  it('logs method, path, status, duration, and the error code of a failed request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'info' }, stream);
    const app = new Hono();
    app.use(
      '*',
      accessLog(() => logger),
    );
    app.get('/ok', (c) => c.json({ fine: true }));
    app.get('/bad', (c) => c.json({ error: { code: 'CHAT_NOT_FOUND', message: 'x' } }, 404));
    app.get('/boom', (c) => c.json({ error: { code: 'MODEL_ERROR', message: 'y' } }, 502));
    await app.request('/ok');
    await app.request('/bad');
    await app.request('/boom');
    expect(lines.map((l) => [l.level, l.msg, l.status, l.code])).toEqual([
      [30, 'GET /ok 200', 200, undefined],
      [40, 'GET /bad 404', 404, 'CHAT_NOT_FOUND'],
      [50, 'GET /boom 502', 502, 'MODEL_ERROR'],
    ]);
    expect(typeof lines[0]!.durationMs).toBe('number');
  });

  it('logs only the requests at or above the log level', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'warn' }, stream);
    const app = new Hono();
    app.use(
      '*',
      accessLog(() => logger),
    );
    app.get('/ok', (c) => c.json({ fine: true }));
    app.get('/bad', (c) => c.json({ error: { code: 'CHAT_NOT_FOUND', message: 'x' } }, 404));
    await app.request('/ok');
    await app.request('/bad');
    expect(lines.map((l) => [l.level, l.msg, l.code])).toEqual([
      [40, 'GET /bad 404', 'CHAT_NOT_FOUND'],
    ]);
  });
});
