import { describe, expect, it } from 'vitest';
import { echoAgency, json, listen, post } from '../helpers.js';

async function say(url: string, chatId: string, message: string) {
  const res = await post(`${url}/agencies/echo/responses`, { message, chatId });
  expect(res.status).toBe(200);
  return json(res);
}

async function userTexts(url: string, chatId: string): Promise<string[]> {
  const body = await json(await fetch(`${url}/threads/${chatId}__Front__USER`));
  return body.items
    .filter((t: { item: { role?: string } }) => t.item.role === 'user')
    .map((t: { item: { content: string } }) => t.item.content);
}

describe('chat and thread routes', () => {
  it("lists a chat's threads and reads a thread, with ranges", async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    await say(server.url, 'c1', 'one');
    const list = await json(await fetch(`${server.url}/chats/c1/threads`));
    expect(list).toMatchObject({ chatId: 'c1', agency: 'echo' });
    expect(list.threads.map((t: { threadId: string }) => t.threadId).sort()).toEqual([
      'c1__Front__Helper',
      'c1__Front__USER',
    ]);
    const thread = await json(await fetch(`${server.url}/threads/c1__Front__USER?from=1&limit=2`));
    expect(thread.thread).toMatchObject({ threadId: 'c1__Front__USER', chatId: 'c1' });
    expect(thread.items).toHaveLength(2);
    const bad = await fetch(`${server.url}/threads/c1__Front__USER?limit=0`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.path).toBe('limit');
  });

  it('checkpoints, rolls back and forks a chat', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    await say(server.url, 'c2', 'one');
    const created = await post(`${server.url}/chats/c2/checkpoints`, { label: 'after one' });
    expect(created.status).toBe(201);
    const { checkpointId, checkpoint } = await json(created);
    expect(checkpoint).toMatchObject({ chatId: 'c2', label: 'after one' });
    await say(server.url, 'c2', 'two');
    expect(await userTexts(server.url, 'c2')).toEqual(['one', 'two']);
    const listed = await json(await fetch(`${server.url}/chats/c2/checkpoints`));
    expect(listed.checkpoints.map((c: { checkpointId: string }) => c.checkpointId)).toEqual([
      checkpointId,
    ]);

    const forked = await post(`${server.url}/chats/c2/fork`, { checkpointId });
    expect(forked.status).toBe(201);
    const { chatId: forkId } = await json(forked);
    expect(await userTexts(server.url, forkId)).toEqual(['one']);
    await say(server.url, forkId, 'fork-two');
    expect(await userTexts(server.url, forkId)).toEqual(['one', 'fork-two']);
    expect(await userTexts(server.url, 'c2')).toEqual(['one', 'two']);

    const rolled = await post(`${server.url}/chats/c2/rollback`, { checkpointId });
    expect(rolled.status).toBe(200);
    expect(Object.keys((await json(rolled)).archives).sort()).toEqual([
      'c2__Front__Helper',
      'c2__Front__USER',
    ]);
    expect(await userTexts(server.url, 'c2')).toEqual(['one']);
    const next = await say(server.url, 'c2', 'three');
    expect(next.finalOutput).toBe('echo: helper says three');
    expect(await userTexts(server.url, 'c2')).toEqual(['one', 'three']);
    const archived = await json(await fetch(`${server.url}/chats/c2/threads?archived=true`));
    expect(archived.threads.length).toBeGreaterThan(2);

    const now = await json(await post(`${server.url}/chats/c2/fork`, {}));
    expect(await userTexts(server.url, now.chatId)).toEqual(['one', 'three']);
  });

  it('answers 404 for unknown checkpoints and chats, 400 for a missing checkpoint id', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    await say(server.url, 'c3', 'one');
    const unknown = await post(`${server.url}/chats/c3/rollback`, { checkpointId: 'ckpt_nope' });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
      message: expect.stringContaining('no checkpoints yet'),
    });
    const missing = await post(`${server.url}/chats/c3/rollback`, {});
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.path).toBe('checkpointId');
    expect((await post(`${server.url}/chats/nope/fork`, {})).status).toBe(404);
    expect((await post(`${server.url}/chats/nope/checkpoints`, {})).status).toBe(404);
    expect((await fetch(`${server.url}/chats/c3/threads?agency=other`)).status).toBe(404);
  });
});
