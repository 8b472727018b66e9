import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { withPrincipal } from '../../../src/server/auth/principal.js';
import { handleError } from '../../../src/server/errors.js';
import { OwnerRecords } from '../../../src/server/ownership/owners.js';
import { ownership } from '../../../src/server/ownership/scope.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { testRegistry } from '../helpers.js';
import { ROUTE_POLICIES } from '../../../src/server/ownership/policies.js';
import { responseIdFor } from '../../../src/server/routes/openaiResponses.js';
import { client, tokenFor, usersApp } from './users.helpers.js';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

/** Two users and an admin on one app, each with a chat, and alice with a run. */
async function twoUsers() {
  const app = usersApp();
  const alice = client(app, await tokenFor('alice'));
  const bob = client(app, await tokenFor('bob'));
  const admin = client(app, await tokenFor('root', { scope: 'colloquy:admin' }));
  const first = await (
    await alice.send('POST', '/agencies/echo/responses', { message: 'a1' })
  ).json();
  const aliceChat: string = first.chatId;
  await alice.send('POST', '/agencies/echo/responses', { message: 'a2', chatId: 'alice-named' });
  const bobRes = await bob.send('POST', '/agencies/echo/responses', {
    message: 'b1',
    chatId: 'bob-chat',
  });
  expect(bobRes.status).toBe(200);
  const run = await (await alice.send('POST', '/ensembles/one/runs', {})).json();
  const aliceRun: string = run.runId;
  await until(
    async () => (await (await alice.get(`/runs/${aliceRun}`)).json()).status,
    (status) => status !== 'running',
  );
  const threads = await (await alice.get(`/chats/${aliceChat}/threads`)).json();
  const aliceThread: string = threads.threads[0].threadId;
  const traces = await (await alice.get(`/traces?chatId=${aliceChat}`)).json();
  const aliceTrace: string = traces.traces[0].traceId;
  return { app, alice, bob, admin, aliceChat, aliceRun, aliceThread, aliceTrace };
}

describe('ownership', () => {
  it('shows each user only their own chats, runs and traces; admins see all', async () => {
    const { alice, bob, admin, aliceChat, aliceRun } = await twoUsers();
    const chatsOf = async (who: typeof alice) =>
      (await (await who.get('/chats?agency=echo')).json()).chats
        .map((c: { chatId: string }) => c.chatId)
        .sort();
    expect(await chatsOf(alice)).toEqual([aliceChat, 'alice-named'].sort());
    expect(await chatsOf(bob)).toEqual(['bob-chat']);
    expect(await chatsOf(admin)).toEqual([aliceChat, 'alice-named', 'bob-chat'].sort());

    const runsOf = async (who: typeof alice) =>
      (await (await who.get('/runs')).json()).runs.map((r: { runId: string }) => r.runId);
    expect(await runsOf(alice)).toEqual([aliceRun]);
    expect(await runsOf(bob)).toEqual([]);
    expect(await runsOf(admin)).toEqual([aliceRun]);
    const call = await (await alice.send('POST', '/agencies/echo/runs', { message: 'bg' })).json();
    expect(call.status).toBe('running');
    expect((await bob.get(`/runs/${call.runId}`)).status).toBe(404);
    expect((await bob.get(`/runs/${call.runId}/events`)).status).toBe(404);
    expect((await bob.send('DELETE', `/runs/${call.runId}`)).status).toBe(404);
    const own = await until(
      async () => (await alice.get(`/runs/${call.runId}`)).json(),
      (state) => state.status !== 'running',
    );
    expect(own.status).toBe('completed');

    const traceChats = async (who: typeof alice) =>
      new Set(
        (await (await who.get('/traces')).json()).traces.map((t: { chatId?: string }) => t.chatId),
      );
    expect(await traceChats(bob)).toEqual(new Set(['bob-chat']));
    expect((await traceChats(alice)).has('bob-chat')).toBe(false);
    const adminChats = await traceChats(admin);
    for (const chat of [aliceChat, 'alice-named', 'bob-chat'])
      expect(adminChats.has(chat)).toBe(true);
    expect((await (await bob.get(`/traces?chatId=${aliceChat}`)).json()).traces).toEqual([]);
  });

  it('answers 404 for another user chat named anywhere, and keeps it theirs', async () => {
    const { app, alice, bob, aliceChat } = await twoUsers();
    const attempts = [
      bob.send('POST', '/agencies/echo/responses', { message: 'x', chatId: aliceChat }),
      bob.send('POST', '/agencies/echo/responses/stream', { message: 'x', chatId: aliceChat }),
      bob.send('POST', '/v1/chat/completions', {
        model: 'echo',
        messages: [{ role: 'user', content: 'x' }],
        user: aliceChat,
      }),
      bob.send(
        'POST',
        '/v1/chat/completions',
        { model: 'echo', messages: [{ role: 'user', content: 'x' }] },
        { 'x-colloquy-chat-id': aliceChat },
      ),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('CHAT_NOT_FOUND');
    }
    const aliceResponse = await (
      await alice.send('POST', '/v1/responses', { model: 'echo', input: 'hello' })
    ).json();
    const viaPrevious = await bob.send('POST', '/v1/responses', {
      model: 'echo',
      input: 'x',
      previous_response_id: aliceResponse.id,
    });
    expect(viaPrevious.status).toBe(404);
    // Nothing of bob's reached alice's chat, and an unknown chat reads as another user's.
    const items = await (await alice.get(`/chats/${aliceChat}/threads`)).json();
    expect(JSON.stringify(items)).not.toContain('"x"');
    const unknown = await bob.get('/chats/never-made/threads');
    const foreign = await bob.get(`/chats/${aliceChat}/threads`);
    expect([unknown.status, foreign.status]).toEqual([404, 404]);
    expect((await foreign.json()).error.message).toBe(
      (await unknown.json()).error.message.replace('never-made', aliceChat),
    );
    expect(app).toBeDefined();
  });

  it('keeps forks with the user who forked, and refuses unscoped routes', async () => {
    const { alice, bob, aliceChat } = await twoUsers();
    const fork = await (await alice.send('POST', `/chats/${aliceChat}/fork`, {})).json();
    expect((await alice.get(`/chats/${fork.chatId}/threads`)).status).toBe(200);
    expect((await bob.get(`/chats/${fork.chatId}/threads`)).status).toBe(404);
    // A route missing from the policy table is refused to signed-in users (fail closed).
    const app = new Hono();
    app.onError(handleError);
    app.use('*', (_c, next) => withPrincipal({ userId: 'alice', admin: false }, next));
    app.use('*', ownership(new OwnerRecords(new MemoryStore()), testRegistry({ demo: false }), {}));
    app.get('/unscoped', (c) => c.json({ secret: true }));
    const refused = await app.request('/unscoped');
    expect(refused.status).toBe(500);
    expect(JSON.stringify(await refused.json())).not.toContain('secret');
  });

  it('covers every route of the app: open ones are allow-listed, the rest hide alice from bob', async () => {
    const ids = await twoUsers();
    const { app, alice, bob } = ids;
    const routes = [
      ...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
    ];
    expect(routes.filter((route) => !(route in ROUTE_POLICIES))).toEqual([]);
    const values: Record<string, string> = {
      ':chatId': ids.aliceChat,
      ':traceId': ids.aliceTrace,
      ':name': 'echo',
      ':model': 'echo',
      ':agency': 'echo',
      ':userId': 'alice', // memory routes: alice's records, named by bob
    };
    for (const route of routes) {
      const policy = ROUTE_POLICIES[route]!;
      if (policy.kind === 'open') continue;
      const [method, pattern] = route.split(' ') as [string, string];
      const url = pattern
        .replace(/^\/ensembles\/:name/, '/ensembles/one')
        .replace(/^\/runs\/:id/, `/runs/${ids.aliceRun}`)
        .replace(/^\/threads\/:id/, `/threads/${encodeURIComponent(ids.aliceThread)}`)
        .replace(/^\/v1\/responses\/:id/, `/v1/responses/${responseIdFor(ids.aliceChat)}`)
        .replace(/:[A-Za-z]+/g, (name) => values[name]!)
        .concat(pattern === '/chats' ? '?agency=echo' : '');
      const body = {
        message: 'x',
        chatId: ids.aliceChat,
        model: 'echo',
        messages: [{ role: 'user', content: 'x' }],
        user: ids.aliceChat,
        input: 'x',
        checkpointId: 'cp',
        runId: ids.aliceRun,
      };
      const response = method === 'GET' ? await bob.get(url) : await bob.send(method, url, body);
      const text = await response.text();
      const leaked = [ids.aliceChat, ids.aliceRun, ids.aliceThread, ids.aliceTrace].some(
        (id) => response.ok && text.includes(id),
      );
      expect({ route, leaked, status: response.status }).toMatchObject({ route, leaked: false });
      // Schedules are scoped by their route (test/server/routes/schedules.test.ts covers them).
      if (policy.kind !== 'list' && policy.kind !== 'schedule')
        expect({ route, status: response.status }).toEqual({ route, status: 404 });
    }
    // Alice still reaches her own records through the same routes.
    expect((await alice.get(`/runs/${ids.aliceRun}`)).status).toBe(200);
    expect((await alice.get(`/traces/${ids.aliceTrace}`)).status).toBe(200);
    expect((await alice.get(`/threads/${encodeURIComponent(ids.aliceThread)}`)).status).toBe(200);
  });
});
