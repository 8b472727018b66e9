/**
 * Fault tests of the error path (issue 25): a tool throwing 3 MB of text must not make a 3 MB
 * error body (every error message is cut to MAX_ERROR_MESSAGE_CHARS, over JSON and SSE), and a
 * 413 on a keep-alive connection closes it (`Connection: close`) so a client does not reuse a
 * socket with an unread body on it.
 */
import http from 'node:http';
import { tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { boundText, MAX_ERROR_MESSAGE_CHARS } from '../../src/server/publicError.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { allSseEvents, json, listen, post } from './helpers.js';

const HUGE = 3 * 1024 * 1024;

/** An agency whose entry point calls `explode`, a tool that throws 3 MB of text. */
function explodingAgency(): Agency {
  const explode = tool({
    name: 'explode',
    description: 'Fails loudly.',
    parameters: z.object({}),
    errorFunction: null,
    execute: async () => {
      throw new Error(`boom ${'x'.repeat(HUGE)}`);
    },
  });
  const front = new Agent({
    name: 'Front',
    instructions: 'f',
    model: new ScriptedModel(() => ({ tool: 'explode', args: {} })),
    tools: [explode],
  });
  return new Agency({
    name: 'boom',
    entryPoints: [front],
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
}

describe('bounded error bodies', () => {
  it('cuts a message to the bound with a note, never splitting a surrogate pair', () => {
    expect(boundText('short')).toBe('short');
    const cut = boundText('y'.repeat(10_000));
    expect(cut.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
    expect(cut).toMatch(/\[\d+ characters cut\]$/);
    const emoji = boundText('😀'.repeat(5_000), 101);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('answers a tool that throws 3 MB with a small 500 body, over JSON and SSE', async () => {
    const server = await listen({ agencies: [explodingAgency()], demo: false });
    const res = await post(`${server.url}/agencies/boom/responses`, { message: 'go' });
    const text = await res.text();
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(text.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 200);
    expect(JSON.parse(text).error.message).toMatch(/boom x+.*characters cut/);
    const stream = await post(`${server.url}/agencies/boom/responses/stream`, { message: 'go' });
    const events = await allSseEvents(stream);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.data.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS * 2);
    const v1 = await post(`${server.url}/v1/chat/completions`, {
      model: 'boom',
      messages: [{ role: 'user', content: 'go' }],
    });
    expect((await v1.text()).length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 200);
  });
});

/** One request on `agent` (a keep-alive agent with one socket); resolves status, headers, body and socket. */
function request(
  agent: http.Agent,
  url: URL,
  body: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            socket: req.socket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('413 on a keep-alive connection', () => {
  it('says Connection: close, and the next request on the same client succeeds', async () => {
    const server = await listen({ agencies: [], demo: true }, { maxBodyBytes: 1024 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL('/agencies/demo/responses', server.url);
      const small = JSON.stringify({ message: 'hi', chatId: 'ka-1' });
      const first = await request(agent, url, small);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      const big = JSON.stringify({ message: 'x'.repeat(64 * 1024) });
      const refused = await request(agent, url, big);
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      for (let i = 0; i < 3; i++) {
        const next = await request(agent, url, small);
        expect(next.status).toBe(200);
      }
      expect(JSON.parse(refused.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    } finally {
      agent.destroy();
    }
  });
});

describe('frame headers', () => {
  it("sends frame-ancestors 'self' and X-Frame-Options SAMEORIGIN on the studio, the API and errors", async () => {
    const server = await listen();
    for (const path of ['/', '/studio', '/agencies', '/health', '/no-such-route']) {
      const res = await fetch(`${server.url}${path}`);
      await res.text();
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'self'");
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
    const stream = await post(`${server.url}/agencies/demo/responses/stream`, { message: 'hi' });
    expect(stream.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    await stream.text();
    expect((await json(await fetch(`${server.url}/health`))).status).toBe('ok');
  });
});
