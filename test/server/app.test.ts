import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { InFlight } from '../../src/server/inflight.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { StoreError } from '../../src/errors.js';
import { echoAgency, json, listen, post, testRegistry } from './helpers.js';

const jsonType = { 'content-type': 'application/json' };

describe('createApp', () => {
  it('answers /health and lists the served agencies, the demo one by default', async () => {
    const app = createApp({ registry: testRegistry({ agencies: [echoAgency()] }) });
    const health = await app.request('/health');
    expect(health.status).toBe(200);
    expect(await json(health)).toEqual({ status: 'ok', agencies: ['echo', 'demo'] });
    const list = await json(await app.request('/agencies'));
    expect(list.agencies.map((a: { name: string }) => a.name)).toEqual(['echo', 'demo']);
  });

  it('describes an agency as a graph: agents, entry points and flows', async () => {
    const app = createApp({ registry: testRegistry() });
    const demo = await json(await app.request('/agencies/demo'));
    expect(demo.entryPoints).toEqual(['Coordinator']);
    expect(demo.agents.map((a: { name: string }) => a.name)).toEqual([
      'Coordinator',
      'Researcher',
      'Writer',
      'Editor',
    ]);
    expect(demo.flows).toEqual([
      ['Coordinator', 'Researcher'],
      ['Coordinator', 'Writer'],
      ['Writer', 'Editor'],
    ]);
    expect(demo.agents[0]).toMatchObject({
      description: 'Plans the work and answers the user.',
      tools: [],
      recipients: ['Researcher', 'Writer'],
    });
  });

  it('answers 400 with the field path for an invalid body', async () => {
    const app = createApp({ registry: testRegistry() });
    const missing = await app.request('/agencies/demo/responses', {
      method: 'POST',
      headers: jsonType,
      body: '{}',
    });
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ error: { code: 'INVALID_BODY', path: 'message' } });
    const wrongType = await app.request('/agencies/demo/responses', {
      method: 'POST',
      headers: jsonType,
      body: JSON.stringify({ message: 'hi', context: 'x' }),
    });
    expect((await json(wrongType)).error).toMatchObject({ code: 'INVALID_BODY', path: 'context' });
    const badRecipient = await app.request('/agencies/demo/responses', {
      method: 'POST',
      headers: jsonType,
      body: JSON.stringify({ message: 'hi', recipient: 'Editor' }),
    });
    expect(badRecipient.status).toBe(400);
    expect((await json(badRecipient)).error).toMatchObject({
      path: 'recipient',
      message: expect.stringContaining('Coordinator'),
    });
    const control = await app.request('/agencies/demo/responses', {
      method: 'POST',
      headers: jsonType,
      body: JSON.stringify({ message: 'hi', chatId: 'a\nb' }),
    });
    expect((await json(control)).error).toMatchObject({
      path: 'chatId',
      message: expect.stringContaining('control characters'),
    });
    const notJson = await app.request('/agencies/demo/responses', {
      method: 'POST',
      headers: jsonType,
      body: '{"message":',
    });
    expect(notJson.status).toBe(400);
    expect((await json(notJson)).error.code).toBe('INVALID_JSON');
    const nested = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: jsonType,
      body: JSON.stringify({ model: 'demo', messages: [{ role: 'robot', content: 'x' }] }),
    });
    expect((await json(nested)).error).toMatchObject({
      code: 'INVALID_BODY',
      path: 'messages.0.role',
    });
  });

  it('answers 404 for an unknown agency, run, thread, chat and route', async () => {
    const app = createApp({ registry: testRegistry() });
    const cases: Array<[string, RequestInit | undefined, string]> = [
      ['/agencies/nope', undefined, 'AGENCY_NOT_FOUND'],
      [
        '/agencies/nope/responses',
        { method: 'POST', headers: jsonType, body: '{"message":"hi"}' },
        'AGENCY_NOT_FOUND',
      ],
      ['/runs/run_nope', undefined, 'RUN_NOT_FOUND'],
      ['/runs/run_nope/events', undefined, 'RUN_NOT_FOUND'],
      ['/runs/run_nope/resume', { method: 'POST', headers: jsonType, body: '{}' }, 'RUN_NOT_FOUND'],
      ['/threads/nope', undefined, 'THREAD_NOT_FOUND'],
      ['/chats/nope/threads', undefined, 'CHAT_NOT_FOUND'],
      [
        '/ensembles/nope/runs',
        { method: 'POST', headers: jsonType, body: '{}' },
        'ENSEMBLE_NOT_FOUND',
      ],
      ['/nowhere', undefined, 'ROUTE_NOT_FOUND'],
    ];
    for (const [path, init, code] of cases) {
      const res = await app.request(path, init);
      expect({ path, status: res.status, code: (await json(res)).error.code }).toEqual({
        path,
        status: 404,
        code,
      });
    }
  });

  it('answers 413 with a JSON error for a body over the limit, on a real listener', async () => {
    const server = await listen({}, { maxBodyBytes: 1024 });
    const res = await post(`${server.url}/agencies/demo/responses`, { message: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect((await json(res)).error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('1024 bytes'),
    });
    const chunked = await fetch(`${server.url}/agencies/demo/responses`, {
      method: 'POST',
      headers: jsonType,
      body: new Blob([JSON.stringify({ message: 'y'.repeat(5000) })]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('answers 5xx with a JSON error, not a hang, when the store throws on append', async () => {
    class BrokenStore extends MemoryStore {
      override async append(): Promise<number> {
        throw new StoreError('Disk full while appending to the thread. Free space and retry.');
      }
    }
    const store: ThreadStore = new BrokenStore();
    const server = await listen({ agencies: [echoAgency('broken', store)], demo: false });
    const res = await post(
      `${server.url}/agencies/broken/responses`,
      { message: 'hi' },
      {},
      AbortSignal.timeout(5000),
    );
    expect(res.status).toBe(502);
    expect((await json(res)).error).toMatchObject({
      code: 'STORE_ERROR',
      message: expect.stringContaining('Disk full'),
    });
    const completions = await post(
      `${server.url}/v1/chat/completions`,
      { model: 'broken', messages: [{ role: 'user', content: 'hi' }] },
      {},
      AbortSignal.timeout(5000),
    );
    expect(completions.status).toBe(502);
    const stream = await post(
      `${server.url}/agencies/broken/responses/stream`,
      { message: 'hi' },
      {},
      AbortSignal.timeout(5000),
    );
    const text = await stream.text();
    expect(text).toMatch(/event: error\n/);
    expect(text).toContain('Disk full');
  });

  it('answers 503 once shutdown has begun', async () => {
    const inflight = new InFlight();
    const app = createApp({ registry: testRegistry(), inflight });
    inflight.drain();
    const res = await app.request('/agencies');
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('SHUTTING_DOWN');
  });

  it('rejects a maxBodyBytes that is not a whole number of bytes', () => {
    expect(() => createApp({ registry: testRegistry(), maxBodyBytes: 0 })).toThrow(
      /maxBodyBytes must be a whole number/,
    );
  });
});
