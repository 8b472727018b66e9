/**
 * Structured output over `/v1` with the real clients at their default retry settings: a
 * conforming answer parses; a non-conforming one is one 400 `OUTPUT_SCHEMA_MISMATCH` naming what
 * did not match, and the client does not retry it (the agency runs once). (A 422 would be retried
 * by LangChain: its no-retry list is 400–407, 409 and 413.)
 */
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject } from 'ai';
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { schemaMismatches } from '../../../src/server/outputSchema.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { listen, post } from '../helpers.js';

const Topic = z.object({ topic: z.string(), count: z.number() });

/** Answers `{ topic, count: 1 }`; `{ topic: 5 }` when asked for "bad"; plain text for "prose". */
async function serve() {
  let runs = 0;
  const model = new ScriptedModel(
    (request) => {
      runs++;
      const text = lastUserText(request);
      if (text.includes('prose')) return 'Here is some prose, not JSON.';
      if (text.includes('bad')) return JSON.stringify({ topic: 5 });
      return JSON.stringify({ topic: text, count: 1 });
    },
    { repeatLast: true },
  );
  const agency = new Agency({
    name: 'shapes',
    entryPoints: [new Agent({ name: 'Front', instructions: 'Answer.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
  const server = await listen({ agencies: [agency], demo: false });
  return { baseURL: `${server.url}/v1`, runs: () => runs };
}

describe('structured output over /v1', () => {
  it('openai client: parse works; a mismatch is one 400 with what did not match', async () => {
    const { baseURL, runs } = await serve();
    const client = new OpenAI({ baseURL, apiKey: 'unused' }); // default retries
    const parsed = await client.responses.parse({
      model: 'shapes',
      input: 'tides',
      text: { format: zodTextFormat(Topic, 'topic') },
    });
    expect(parsed.output_parsed).toEqual({ topic: 'tides', count: 1 });
    const chat = await client.chat.completions.parse({
      model: 'shapes',
      messages: [{ role: 'user', content: 'waves' }],
      response_format: zodResponseFormat(Topic, 'topic'),
    });
    expect(chat.choices[0]!.message.parsed).toEqual({ topic: 'waves', count: 1 });

    const before = runs();
    const error = (await client.responses
      .parse({ model: 'shapes', input: 'bad', text: { format: zodTextFormat(Topic, 'topic') } })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/\$\.topic: expected string, got integer/);
    expect(error.message).toMatch(/\$\.count: required, missing/);
    expect(runs() - before).toBe(1);

    const prose = (await client.chat.completions
      .parse({
        model: 'shapes',
        messages: [{ role: 'user', content: 'prose' }],
        response_format: zodResponseFormat(Topic, 'topic'),
      })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(prose.status).toBe(400);
    expect((prose.error as { code?: string }).code).toBe('OUTPUT_SCHEMA_MISMATCH');
    expect(runs() - before).toBe(2);
  });

  it('AI SDK generateObject: an object on success; one 4xx and no retry on a mismatch', async () => {
    const { baseURL, runs } = await serve();
    const provider = createOpenAI({ baseURL, apiKey: 'unused' });
    for (const model of [provider('shapes'), provider.chat('shapes')]) {
      const { object } = await generateObject({ model, schema: Topic, prompt: 'comets' });
      expect(object).toEqual({ topic: 'comets', count: 1 });
      const before = runs();
      const error = (await generateObject({ model, schema: Topic, prompt: 'bad' }).catch(
        (e: unknown) => e,
      )) as { statusCode?: number; isRetryable?: boolean };
      expect(error.statusCode).toBe(400);
      expect(error.isRetryable).toBe(false);
      expect(runs() - before).toBe(1);
    }
  });

  it('LangChain withStructuredOutput: parses; a mismatch fails once', async () => {
    const { baseURL, runs } = await serve();
    const llm = new ChatOpenAI({ model: 'shapes', apiKey: 'unused', configuration: { baseURL } });
    const structured = llm.withStructuredOutput(Topic, { method: 'jsonSchema', name: 'topic' });
    expect(await structured.invoke('rivers')).toEqual({ topic: 'rivers', count: 1 });
    const before = runs();
    const error = (await structured.invoke('bad').catch((e: unknown) => e)) as {
      status?: number;
    };
    expect(error.status).toBe(400);
    expect(runs() - before).toBe(1);
  }, 30_000);

  it('a streamed mismatch ends with an error event naming the code', async () => {
    const { baseURL } = await serve();
    const res = await post(`${baseURL}/chat/completions`, {
      model: 'shapes',
      stream: true,
      messages: [{ role: 'user', content: 'bad' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'topic', schema: z.toJSONSchema(Topic) },
      },
    });
    const text = await res.text();
    expect(text).toMatch(/"code":"OUTPUT_SCHEMA_MISMATCH"/);
  });
});

describe('schemaMismatches', () => {
  it('names each place that does not match', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        kind: { enum: ['a', 'b'] },
        ref: { $ref: '#/$defs/n' },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['tags'],
      additionalProperties: false,
      $defs: { n: { type: 'number' } },
    };
    expect(schemaMismatches({ tags: ['x'], kind: 'a', ref: 1.5, either: null }, schema)).toEqual(
      [],
    );
    expect(
      schemaMismatches({ tags: [1], kind: 'c', ref: 'x', either: 3, extra: true }, schema),
    ).toEqual([
      '$.tags[0]: expected string, got integer',
      '$.kind: expected one of "a", "b"',
      '$.ref: expected number, got string',
      '$.either: matches none of the 2 allowed shapes',
      '$.extra: not allowed',
    ]);
  });
});
