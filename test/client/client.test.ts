/** `colloquy/client` against a loopback server: agencies, a response, its event stream, threads, errors. */
import { describe, expect, it } from 'vitest';
import { ColloquyClientError, createClient } from '../../src/client.js';
import { echoAgency, listen } from '../server/helpers.js';

describe('colloquy/client', () => {
  it('lists agencies, answers, streams events and reads threads', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const client = createClient({ baseUrl: server.url });
    expect((await client.agencies()).agencies.map((a) => a.name)).toEqual(['echo']);
    const answer = await client.respond('echo', { message: 'hi', chatId: 'c1' });
    expect(answer.finalOutput).toBe('echo: helper says hi');
    const types: string[] = [];
    for await (const event of client.stream('echo', { message: 'again', chatId: 'c1' })) {
      types.push(event.type);
    }
    expect(types.slice(0, 2)).toEqual(['run_started', 'agent_run_started']);
    expect(types.at(-1)).toBe('run_completed');
    expect((await client.threads('c1')).threads.length).toBeGreaterThan(0);
  });

  it('throws the server error with its code and field', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const client = createClient({ baseUrl: server.url });
    const error = (await client
      .respond('echo', { message: '' })
      .catch((e: unknown) => e)) as ColloquyClientError;
    expect(error).toBeInstanceOf(ColloquyClientError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_BODY', path: 'message' });
  });
});
