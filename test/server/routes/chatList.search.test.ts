import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OwnerRecords } from '../../../src/server/ownership/owners.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { SqliteStore } from '../../../src/stores/sqlite.js';
import type { ThreadStore } from '../../../src/stores/types.js';
import { client, tokenFor, usersApp } from '../auth/users.helpers.js';
import { echoAgency, json, listen, post, tempDir } from '../helpers.js';

const stores: Array<[string, () => ThreadStore]> = [
  ['memory', () => new MemoryStore()],
  ['sqlite', () => new SqliteStore({ path: path.join(tempDir(), 'chats.db') })],
];

/** The chat ids `GET /chats` lists for `params`. */
async function listed(url: string, params: string): Promise<string[]> {
  const res = await fetch(`${url}/chats?agency=echo&${params}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res)).chats.map((c: { chatId: string }) => c.chatId).sort();
}

/** Waits until the clock has moved past `ms` (store timestamps are in milliseconds). */
async function pastMs(ms: number): Promise<void> {
  while (Date.now() <= ms + 1) await new Promise((resolve) => setImmediate(resolve));
}

describe.each(stores)('GET /chats search on the %s store', (_name, create) => {
  it('finds chats by text in any message, by agent, by owner and by date', async () => {
    const store = create();
    const server = await listen({ agencies: [echoAgency('echo', store)], store, demo: false });
    const send = (message: string, chatId: string) =>
      post(`${server.url}/agencies/echo/responses`, { message, chatId });
    await send('banana split', 'fruit');
    await send('tell me about tides', 'sea');
    // A chat where Front also talked to a third agent (as a bigger agency would).
    await store.append(
      'sea__Front__Tides',
      [{ id: 'x1', item: { role: 'user', content: 'high water at noon' } as never }],
      { expectedVersion: 0, chatId: 'sea' },
    );
    const owners = new OwnerRecords(server.registry.runs.store);
    await owners.claim('chat', 'fruit', 'alice');
    await owners.claim('chat', 'sea', 'bob');
    const seaThreads = await store.listThreads({ chatId: 'sea' });
    expect(seaThreads).toHaveLength(3);
    await pastMs(Math.max(...seaThreads.map((t) => Date.parse(t.updatedAt))));
    const between = new Date(Date.now()).toISOString();
    await pastMs(Date.parse(between));
    await send('late question', 'late');

    // Text: the title, the id, and words only in a helper's answer or another thread.
    expect(await listed(server.url, 'q=BANANA')).toEqual(['fruit']);
    expect(await listed(server.url, 'q=helper%20says%20tell')).toEqual(['sea']);
    expect(await listed(server.url, 'q=water%20at%20noon')).toEqual(['sea']);
    expect(await listed(server.url, 'q=nothing%20like%20this')).toEqual([]);
    // Agent: a talker in one of the chat's threads (any case).
    expect(await listed(server.url, 'agent=tides')).toEqual(['sea']);
    expect(await listed(server.url, 'agent=Helper')).toEqual(['fruit', 'late', 'sea']);
    // User: the chat's owner.
    expect(await listed(server.url, 'user=alice')).toEqual(['fruit']);
    expect(await listed(server.url, 'user=bob&q=tides')).toEqual(['sea']);
    // Date: active in the window.
    expect(await listed(server.url, `since=${encodeURIComponent(between)}`)).toEqual(['late']);
    expect(await listed(server.url, `until=${encodeURIComponent(between)}`)).toEqual([
      'fruit',
      'sea',
    ]);
    expect(await listed(server.url, 'until=2000-01-01')).toEqual([]);
    // Filters combine, and paging still reaches every match.
    expect(await listed(server.url, 'agent=Front&q=e&limit=1')).toHaveLength(1);
  });
});

describe('GET /chats search parameters', () => {
  it('answers 400 naming the bad parameter and the fix', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    for (const [params, name] of [
      ['since=yesterday', 'since'],
      ['until=2026-13-45', 'until'],
      ['agent=', 'agent'],
      ['user=', 'user'],
      [`q=${'x'.repeat(501)}`, 'q'],
    ] as const) {
      const res = await fetch(`${server.url}/chats?agency=echo&${params}`);
      expect(res.status, params).toBe(400);
      const { error } = await json(res);
      expect(error.path, params).toBe(name);
      expect(error.message, params).toContain(`"${name}"`);
    }
  });
});

describe('GET /chats for a signed-in user', () => {
  it("pages through the user's own chats only, every page full", async () => {
    const app = usersApp();
    const alice = client(app, await tokenFor('alice'));
    const bob = client(app, await tokenFor('bob'));
    // Interleaved, so that a page of all chats would hold both users' chats.
    for (let i = 0; i < 3; i += 1) {
      for (const [name, user] of [
        ['a', alice],
        ['b', bob],
      ] as const) {
        const res = await user.send('POST', '/agencies/echo/responses', {
          message: `${name} ${i}`,
          chatId: `${name}${i}`,
        });
        expect(res.status).toBe(200);
      }
    }
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res = await alice.get(`/chats?agency=echo&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const body = await res.json();
      pages.push(body.chats.map((c: { chatId: string }) => c.chatId));
      cursor = body.nextCursor;
    } while (cursor);
    expect(pages[0]).toHaveLength(2);
    expect(pages.flat().sort()).toEqual(['a0', 'a1', 'a2']);
    const searched = await (await bob.get('/chats?agency=echo&q=b%201')).json();
    expect(searched.chats.map((c: { chatId: string }) => c.chatId)).toEqual(['b1']);
  });
});
