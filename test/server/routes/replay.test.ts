// POST /chats/:chatId/replay: what-if over HTTP, its body errors, and the fork's owner.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app.js';
import { jwtAuthenticator } from '../../../src/server/auth/jwt.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { poemsAgency } from '../../agency/replay/poemsAgency.js';
import { client, SECRET, tokenFor } from '../auth/users.helpers.js';
import { json, listen, post, testRegistry } from '../helpers.js';

async function userItem(url: string, chatId: string, text: string): Promise<string> {
  const thread = await json(await fetch(`${url}/threads/${chatId}__Coordinator__USER`));
  return thread.items.find((entry: { item: { content?: unknown } }) => entry.item.content === text)
    .id;
}

describe('POST /chats/:chatId/replay', () => {
  it('forks the chat, replays the recorded calls and answers with the comparison', async () => {
    const { agency, coordinatorModel, writerModel } = poemsAgency();
    const server = await listen({ agencies: [agency], demo: false });
    for (const message of ['tides', 'rivers']) {
      const res = await post(`${server.url}/agencies/poems/responses`, { message, chatId: 'p1' });
      expect(res.status).toBe(200);
    }
    const at = await userItem(server.url, 'p1', 'rivers');
    const calls = coordinatorModel.calls.length + writerModel.calls.length;

    const res = await post(`${server.url}/chats/p1/replay`, {
      at,
      set: { Writer: { instructions: 'Be brief.' } },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toMatchObject({
      forkOf: 'p1',
      at,
      agency: 'poems',
      modelCalls: { replayed: 1, live: 2 },
      finalOutput: 'Here it is: rivers.',
    });
    expect(coordinatorModel.calls.length + writerModel.calls.length).toBe(calls + 2);
    expect(
      body.differences.map((d: { agent: string; kind: string }) => `${d.agent}:${d.kind}`),
    ).toEqual([
      'Coordinator:tool_result',
      'Coordinator:message',
      'Coordinator:final_answer',
      'Writer:message',
      'Writer:final_answer',
      'Writer:usage',
    ]);
    expect(body.branches.original.chatId).toBe('p1');
    expect(body.branches.replay.chatId).toBe(body.chatId);
    // The fork is a chat of the agency like any other.
    const threads = await json(await fetch(`${server.url}/chats/${body.chatId}/threads`));
    expect(threads.agency).toBe('poems');
    expect(threads.threads).toHaveLength(2);
  });

  it('names the bad field and the fix', async () => {
    const { agency } = poemsAgency();
    const server = await listen({ agencies: [agency], demo: false });
    await post(`${server.url}/agencies/poems/responses`, { message: 'tides', chatId: 'p2' });
    const at = await userItem(server.url, 'p2', 'tides');
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /^at /],
      [{ at, set: { Writer: { tools: [] } } }, 400, /^set\.Writer .*tools/],
      [
        { at, set: { Writer: { instructions: '' } } },
        400,
        /^set\.Writer\.instructions .*: expected the new instructions as text\./,
      ],
      [{ at, message: 3 }, 400, /^message /],
      [
        { at, set: { Editor: { instructions: 'x' } } },
        400,
        /set\.Editor: "Editor" is not an agent of agency "poems"/,
      ],
      [{ at: 'nope' }, 404, /Chat "p2" has no item "nope"/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(`${server.url}/chats/p2/replay`, body);
      const answer = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(`${answer.error.path ?? ''} ${answer.error.message}`, JSON.stringify(body)).toMatch(
        message,
      );
    }
    const unknown = await post(`${server.url}/chats/none/replay`, { at });
    expect(unknown.status).toBe(404);
  });

  it('gives the fork to the user who replayed, and keeps other users out', async () => {
    const store = new MemoryStore();
    const { agency } = poemsAgency(store);
    const app = createApp({
      registry: testRegistry({ agencies: [agency], store, demo: false }),
      authenticate: jwtAuthenticator({ secret: SECRET }),
    });
    const alice = client(app, await tokenFor('alice'));
    const bob = client(app, await tokenFor('bob'));
    const answer = await alice.send('POST', '/agencies/poems/responses', { message: 'tides' });
    const { chatId } = await answer.json();
    const thread = await (await alice.get(`/threads/${chatId}__Coordinator__USER`)).json();
    const at = thread.items[0].id;
    expect((await bob.send('POST', `/chats/${chatId}/replay`, { at })).status).toBe(404);
    const replayed = await alice.send('POST', `/chats/${chatId}/replay`, { at, message: 'lakes' });
    expect(replayed.status).toBe(201);
    const fork = (await replayed.json()).chatId;
    expect((await alice.get(`/chats/${fork}/threads`)).status).toBe(200);
    expect((await bob.get(`/chats/${fork}/threads`)).status).toBe(404);
  });
});
