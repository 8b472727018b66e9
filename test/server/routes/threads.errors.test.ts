import { describe, expect, it } from 'vitest';
import { echoAgency, json, listen, post } from '../helpers.js';

async function say(url: string, chatId: string, message: string): Promise<void> {
  const res = await post(`${url}/agencies/echo/responses`, { message, chatId });
  expect(res.status).toBe(200);
}

describe('chat routes: library errors keep their HTTP status', () => {
  it('answers 409 CHECKPOINT_STALE (not 500) for a rollback to a checkpoint a rollback made stale', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    await say(server.url, 'c1', 'one');
    const first = await json(await post(`${server.url}/chats/c1/checkpoints`, {}));
    await say(server.url, 'c1', 'two');
    const second = await json(await post(`${server.url}/chats/c1/checkpoints`, {}));
    const rolled = await post(`${server.url}/chats/c1/rollback`, {
      checkpointId: first.checkpointId,
    });
    expect(rolled.status).toBe(200);
    await say(server.url, 'c1', 'three');

    const stale = await post(`${server.url}/chats/c1/rollback`, {
      checkpointId: second.checkpointId,
    });
    expect(stale.status).toBe(409);
    const body = await json(stale);
    expect(body.error.code).toBe('CHECKPOINT_STALE');
    expect(body.error.message).toContain(second.checkpointId);
  });

  it('answers 400 INVALID_JSON for a body that is not JSON', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const res = await post(`${server.url}/chats/c1/rollback`, '{not json');
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('INVALID_JSON');
  });
});
