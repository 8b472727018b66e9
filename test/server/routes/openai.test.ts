import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { echoAgency, json, listen, post } from '../helpers.js';

describe('the OpenAI-compatible endpoint, with the official openai client', () => {
  it('lists the agencies as models', async () => {
    const server = await listen({ agencies: [echoAgency()] });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused' });
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(['echo', 'demo']);
  });

  it("answers a chat completion with the agency's final output and usage", async () => {
    const server = await listen();
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({
        model: 'demo',
        messages: [{ role: 'user', content: 'Write about tides' }],
        user: 'oa-plain',
      })
      .withResponse();
    expect(response.headers.get('x-colloquy-chat-id')).toBe('oa-plain');
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('demo');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.choices[0]!.message.content).toContain('Here is your brief on tides');
    expect(data.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    expect(data.usage!.total_tokens).toBeGreaterThan(0);
    const threads = await json(await fetch(`${server.url}/chats/oa-plain/threads`));
    expect(threads.agency).toBe('demo');
  });

  it("streams chat.completion.chunks of the entry point's text, ending with [DONE]", async () => {
    const server = await listen();
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create(
      {
        model: 'demo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Write about waves' },
        ],
        stream: true,
        stream_options: { include_usage: true },
      },
      { headers: { 'x-colloquy-chat-id': 'oa-stream' } },
    );
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
    const plain = await json(
      await post(`${server.url}/agencies/demo/responses`, { message: 'Write about waves' }),
    );
    expect(text).toBe(plain.finalOutput);
    const raw = await (
      await post(`${server.url}/v1/chat/completions`, {
        model: 'demo',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      })
    ).text();
    expect(raw.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('continues a chat by the x-colloquy-chat-id header', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const headers = { 'x-colloquy-chat-id': 'oa-continue' };
    await client.chat.completions.create(
      { model: 'echo', messages: [{ role: 'user', content: 'first' }] },
      { headers },
    );
    const second = await client.chat.completions.create(
      { model: 'echo', messages: [{ role: 'user', content: 'second' }] },
      { headers },
    );
    expect(second.choices[0]!.message.content).toBe('echo: helper says second');
    const user = await json(await fetch(`${server.url}/threads/oa-continue__Front__USER`));
    expect(
      user.items
        .filter((t: { item: { role?: string } }) => t.item.role === 'user')
        .map((t: { item: { content: unknown } }) => t.item.content),
    ).toEqual(['first', 'second']);
  });

  it('folds earlier messages into a new chat when no chat id is given', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const reply = await client.chat.completions.create({
      model: 'echo',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(reply.choices[0]!.message.content).toBe(
      'echo: helper says Earlier in this conversation:\nuser: hi\nassistant: hello\n\nagain',
    );
  });

  it('reports unknown models and bad requests as API errors the client understands', async () => {
    const server = await listen();
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('Agency "nope" was not found'),
    });
    await expect(
      client.chat.completions.create({
        model: 'demo',
        messages: [{ role: 'assistant', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    const auth = await listen({}, { apiKey: 'k' });
    await expect(
      new OpenAI({ baseURL: `${auth.url}/v1`, apiKey: 'wrong', maxRetries: 0 }).models.list(),
    ).rejects.toMatchObject({ status: 401 });
    const ok = await new OpenAI({
      baseURL: `${auth.url}/v1`,
      apiKey: 'k',
      maxRetries: 0,
    }).models.list();
    expect(ok.data.map((m) => m.id)).toEqual(['demo']);
  });
});
