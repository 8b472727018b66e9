/**
 * The OpenAI-compatible endpoint with the real clients: the official `openai` client (Responses
 * and Chat Completions), the Vercel AI SDK's `@ai-sdk/openai` (default = Responses, `.chat()`),
 * and LangChain's `ChatOpenAI` with and without `useResponsesApi`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject, generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen } from '../helpers.js';
import { countingAgency } from './openaiClients.helpers.js';

async function serve() {
  const { agency, requests } = countingAgency();
  const server = await listen({ agencies: [agency] });
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  return { server, client, requests };
}

describe('openai client: Responses API', () => {
  it('answers, and previous_response_id continues the chat', async () => {
    const { client } = await serve();
    const first = await client.responses.create({ model: 'counter', input: 'hello' });
    expect(first.object).toBe('response');
    expect(first.status).toBe('completed');
    expect(first.output_text).toBe('reply to hello (#1)');
    expect(first.usage?.total_tokens).toBeGreaterThanOrEqual(0);
    const second = await client.responses.create({
      model: 'counter',
      input: 'again',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('reply to again (#2)');
    const fresh = await client.responses.create({ model: 'counter', input: 'new' });
    expect(fresh.output_text).toBe('reply to new (#1)');
  });

  it('streams text deltas and ends with response.completed', async () => {
    const { client } = await serve();
    const stream = await client.responses.create({
      model: 'counter',
      input: 'waves',
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_text.done');
    expect(text).toBe('reply to waves (#1)');
    expect(completed?.output_text ?? completed?.output).toBeTruthy();
  });

  it('honours text.format json_schema through the entry point', async () => {
    const { client, requests } = await serve();
    const response = await client.responses.create({
      model: 'counter',
      input: 'tides',
      text: {
        format: {
          type: 'json_schema',
          name: 'topic',
          strict: true,
          schema: {
            type: 'object',
            properties: { topic: { type: 'string' }, count: { type: 'number' } },
            required: ['topic', 'count'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(JSON.parse(response.output_text)).toEqual({ topic: 'tides', count: 1 });
    expect(requests.at(-1)!.outputType).toMatchObject({ type: 'json_schema', name: 'topic' });
  });

  it('refuses hosted tools with a 400 naming the field', async () => {
    const { client } = await serve();
    const error = await client.responses
      .create({ model: 'counter', input: 'hi', tools: [{ type: 'web_search' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/tools\.0 must be a function tool/);
  });
});

describe('openai client: Chat Completions and models', () => {
  it('retrieves a model by id, and 404s an unknown one', async () => {
    const { client } = await serve();
    expect(await client.models.retrieve('counter')).toMatchObject({
      id: 'counter',
      object: 'model',
    });
    await expect(client.models.retrieve('nope')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('rejects n > 1 and tools that are not functions with 400s naming the field', async () => {
    const { client } = await serve();
    const n = await client.chat.completions
      .create({ model: 'counter', messages: [{ role: 'user', content: 'hi' }], n: 2 })
      .catch((e: unknown) => e);
    expect(n).toBeInstanceOf(OpenAI.BadRequestError);
    expect((n as Error).message).toMatch(/"n" must be 1/);
    const tools = await client.chat.completions
      .create({
        model: 'counter',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'not a name', parameters: {} } }],
      })
      .catch((e: unknown) => e);
    expect((tools as Error).message).toMatch(/tools\.0 must be a function tool/);
  });

  it('honours response_format json_schema', async () => {
    const { client } = await serve();
    const completion = await client.chat.completions.create({
      model: 'counter',
      messages: [{ role: 'user', content: 'moons' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'topic',
          schema: { type: 'object', properties: { topic: { type: 'string' } } },
        },
      },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toMatchObject({ topic: 'moons' });
  });

  it('passes image parts to the model as input_image', async () => {
    const { client, requests } = await serve();
    const pixel = 'data:image/png;base64,iVBORw0KGgo=';
    await client.chat.completions.create({
      model: 'counter',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: pixel } },
          ],
        },
      ],
    });
    const user = (requests.at(-1)!.input as Array<{ role?: string; content?: unknown }>).find(
      (item) => item.role === 'user',
    )!;
    expect(user.content).toEqual([
      { type: 'input_text', text: 'what is this' },
      { type: 'input_image', image: pixel },
    ]);
  });
});

describe('Vercel AI SDK (@ai-sdk/openai)', () => {
  it('generates text with the default (Responses) model and with .chat()', async () => {
    const { server } = await serve();
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused' });
    const viaResponses = await generateText({ model: provider('counter'), prompt: 'sun' });
    expect(viaResponses.text).toBe('reply to sun (#1)');
    const viaChat = await generateText({ model: provider.chat('counter'), prompt: 'moon' });
    expect(viaChat.text).toBe('reply to moon (#1)');
  });

  it('streams text with the default (Responses) model', async () => {
    const { server } = await serve();
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused' });
    const result = streamText({ model: provider('counter'), prompt: 'stars' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('reply to stars (#1)');
  });

  it('generates an object through structured output, on both APIs', async () => {
    const { server } = await serve();
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused' });
    const schema = z.object({ topic: z.string(), count: z.number() });
    for (const model of [provider('counter'), provider.chat('counter')]) {
      const { object } = await generateObject({ model, schema, prompt: 'comets' });
      expect(object).toEqual({ topic: 'comets', count: 1 });
    }
  });
});

describe("LangChain's ChatOpenAI", () => {
  it('invokes over Chat Completions and over the Responses API', async () => {
    const { server } = await serve();
    for (const useResponsesApi of [false, true]) {
      const llm = new ChatOpenAI({
        model: 'counter',
        apiKey: 'unused',
        configuration: { baseURL: `${server.url}/v1` },
        useResponsesApi,
        maxRetries: 0,
      });
      const message = await llm.invoke(`tides ${useResponsesApi}`);
      expect(message.text).toBe(`reply to tides ${useResponsesApi} (#1)`);
    }
  });

  it('returns structured output with method jsonSchema', async () => {
    const { server } = await serve();
    const llm = new ChatOpenAI({
      model: 'counter',
      apiKey: 'unused',
      configuration: { baseURL: `${server.url}/v1` },
      maxRetries: 0,
    });
    const structured = llm.withStructuredOutput(
      z.object({ topic: z.string(), count: z.number() }),
      { method: 'jsonSchema', name: 'topic' },
    );
    expect(await structured.invoke('rivers')).toEqual({ topic: 'rivers', count: 1 });
  });
});
