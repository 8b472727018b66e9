import { describe, expect, it } from 'vitest';
import { corsOrigins, normalizeOrigin } from '../../src/server/crossOrigin.js';
import { echoAgency, listen } from './helpers.js';
import { rawRequest } from './rawRequest.js';

const page = 'https://evil.example';
const body = JSON.stringify({ message: 'hi' });

describe('normalizeOrigin / corsOrigins', () => {
  it('normalises origins and rejects what is not one', () => {
    expect(normalizeOrigin('HTTP://LocalHost:5173/')).toBe('http://localhost:5173');
    expect(normalizeOrigin('null')).toBeNull();
    expect(corsOrigins(['https://a.example', '*'])).toEqual(['https://a.example', '*']);
    expect(() => corsOrigins('not an origin')).toThrow(/is not an origin/);
  });
});

describe('cross-origin requests', () => {
  it('without cors: a page on another origin cannot run an agency or read threads', async () => {
    const server = await listen({ agencies: [echoAgency()] });
    const run = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'POST',
      headers: { origin: page, 'content-type': 'application/json' },
      body,
    });
    expect(run.status).toBe(403);
    expect(run.json().error).toMatchObject({ code: 'CROSS_ORIGIN_REFUSED' });
    expect(run.body).toContain('--cors');
    const read = await rawRequest(server.url, '/chats/c/threads', { headers: { origin: page } });
    expect(read.status).toBe(403);
    const fetchSite = await rawRequest(server.url, '/chats/c/threads', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.status).toBe(403);
    const nullOrigin = await rawRequest(server.url, '/agencies', { headers: { origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    const preflight = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'OPTIONS',
      headers: { origin: page, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // Non-browser clients (no Origin) and same-origin requests are served.
    expect((await rawRequest(server.url, '/agencies')).status).toBe(200);
    const same = await rawRequest(server.url, '/agencies', { headers: { origin: server.url } });
    expect(same.status).toBe(200);
  });

  it('with cors: the configured origin gets preflight and CORS headers; others are refused', async () => {
    const app = 'http://localhost:5173';
    const server = await listen({ agencies: [echoAgency()] }, { cors: [app] });
    const preflight = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'OPTIONS',
      headers: {
        origin: app,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(app);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/content-type/i);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    const run = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'POST',
      headers: { origin: app, 'content-type': 'application/json' },
      body,
    });
    expect(run.status).toBe(200);
    expect(run.headers['access-control-allow-origin']).toBe(app);
    expect(String(run.json().finalOutput)).toContain('hi');
    const other = await rawRequest(server.url, '/agencies', { headers: { origin: page } });
    expect(other.status).toBe(403);
  });

  it('with cors "*": any origin is allowed', async () => {
    const server = await listen({}, { cors: '*' });
    const res = await rawRequest(server.url, '/agencies', { headers: { origin: page } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
