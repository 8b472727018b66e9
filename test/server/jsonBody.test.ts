import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { mediaType, requireJsonBody } from '../../src/server/jsonBody.js';
import { echoAgency, listen } from './helpers.js';
import { rawRequest } from './rawRequest.js';

const body = JSON.stringify({ message: 'hi' });

describe('request bodies must be declared JSON', () => {
  it('refuses a text/plain POST (a cross-site simple request) with 415 and runs nothing', async () => {
    const server = await listen({ agencies: [echoAgency()] });
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
    ]) {
      const res = await rawRequest(server.url, '/agencies/echo/responses', {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
      expect(res.status, type).toBe(415);
      expect(res.json().error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    // The responses route takes uploads: a malformed multipart body is a 400, not a crash.
    const multipart = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body,
    });
    expect(multipart.status).toBe(400);
    expect(multipart.json().error).toMatchObject({ code: 'INVALID_BODY' });
    const untyped = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'POST',
      body,
    });
    expect(untyped.status).toBe(415);
    const threads = await rawRequest(server.url, '/chats');
    expect(threads.status === 404 || !threads.body.includes('echo')).toBe(true);
    const ok = await rawRequest(server.url, '/agencies/echo/responses', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expect(ok.status).toBe(200);
  });

  it('lets bodiless POSTs through and multipart only on upload paths', async () => {
    const app = new Hono();
    app.use('*', requireJsonBody({ multipartPaths: [/^\/files$/] }));
    app.post('*', (c) => c.text('ran'));
    const send = (path: string, type?: string, text?: string) =>
      app.request(path, {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        ...(text ? { body: text } : {}),
      });
    expect((await send('/x')).status).toBe(200);
    expect((await send('/files', 'multipart/form-data; boundary=b', '--b--')).status).toBe(200);
    expect((await send('/x', 'multipart/form-data; boundary=b', '--b--')).status).toBe(415);
    expect((await send('/x', 'application/vnd.api+json', '{}')).status).toBe(200);
    expect(mediaType(' Application/JSON ; charset=utf-8')).toBe('application/json');
  });
});
