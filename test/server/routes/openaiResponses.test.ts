/** POST /v1/responses details beyond the real clients: input items, instructions, chat ids, errors. */
import { describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { allSseEvents, json, listen, post } from '../helpers.js';
import { countingAgency } from './openaiClients.helpers.js';

async function serve() {
  const { agency, requests } = countingAgency();
  const server = await listen({ agencies: [agency] });
  return { url: `${server.url}/v1/responses`, requests };
}

describe('POST /v1/responses', () => {
  it('folds earlier input items into a new chat and turns system items into instructions', async () => {
    const { url, requests } = await serve();
    const response = await post(url, {
      model: 'counter',
      instructions: 'Be brief.',
      input: [
        { role: 'system', content: 'Answer in English.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: [{ type: 'output_text', text: 'first answer' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'second question' }] },
      ],
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.output[0].content[0].text).toMatch(/^reply to Earlier in this conversation/);
    const text = lastUserText(requests.at(-1)!);
    expect(text).toContain('user: first question\nassistant: first answer');
    expect(text).toContain('second question');
    expect(JSON.stringify(requests.at(-1)!.systemInstructions)).toMatch(
      /Be brief\.[\s\S]*Answer in English\./,
    );
  });

  it('continues the chat named by the x-colloquy-chat-id header', async () => {
    const { url } = await serve();
    const headers = { 'x-colloquy-chat-id': 'header-chat' };
    await post(url, { model: 'counter', input: 'one' }, headers);
    const second = await post(url, { model: 'counter', input: 'two' }, headers);
    expect(second.headers.get('x-colloquy-chat-id')).toBe('header-chat');
    expect((await json(second)).output[0].content[0].text).toBe('reply to two (#2)');
  });

  it('refuses input without a user message, unknown agencies and foreign response ids', async () => {
    const { url } = await serve();
    const noUser = await post(url, {
      model: 'counter',
      input: [{ role: 'assistant', content: 'hi' }],
    });
    expect(noUser.status).toBe(400);
    expect((await json(noUser)).error).toMatchObject({ path: 'input' });
    expect((await post(url, { model: 'nope', input: 'x' })).status).toBe(404);
    const foreign = await post(url, {
      model: 'counter',
      input: 'x',
      previous_response_id: 'resp_from_elsewhere',
    });
    expect((await json(foreign)).error).toMatchObject({ path: 'previous_response_id' });
  });

  it('ends a stream with an error event when the call fails', async () => {
    const broken = new Agency({
      name: 'broken',
      entryPoints: [
        new Agent({
          name: 'Front',
          instructions: 'f',
          model: new ScriptedModel(() => {
            throw new Error('model exploded');
          }),
        }),
      ],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const server = await listen({ agencies: [broken] });
    const response = await post(`${server.url}/v1/responses`, {
      model: 'broken',
      input: 'x',
      stream: true,
    });
    const events = await allSseEvents(response);
    expect(events[0]!.event).toBe('response.created');
    expect(events.at(-1)!.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data).message).toMatch(/model exploded/);
  });
});
