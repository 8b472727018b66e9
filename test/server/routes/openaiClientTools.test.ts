/**
 * Client tools on `/v1` with the official `openai` client (Chat Completions and Responses) and
 * LangChain's `bindTools`: the model's call of a client tool comes back as `tool_calls` /
 * `function_call` items, and the request carrying the result continues the same run.
 */
import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { listen, post } from '../helpers.js';

async function serve() {
  const store = new MemoryStore();
  const { agency } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false });
  const baseURL = `${server.url}/v1`;
  return { baseURL, client: new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 }) };
}

const parameters = {
  type: 'object',
  properties: { theme: { type: 'string' } },
  required: ['theme'],
};

describe('client tools on /v1', () => {
  it('chat completions: finish_reason tool_calls, then the tool result continues the run', async () => {
    const { client } = await serve();
    const tools = [{ type: 'function' as const, function: { name: 'set_theme', parameters } }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'make it dark' },
    ];
    const first = await client.chat.completions.create({ model: 'frontdesk', messages, tools });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('set_theme');
    expect(JSON.parse(call.function.arguments)).toEqual({ theme: 'dark' });
    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: 'dark now' });
    const second = await client.chat.completions.create({ model: 'frontdesk', messages, tools });
    expect(second.choices[0]!.finish_reason).toBe('stop');
    expect(second.choices[0]!.message.content).toBe('Desk: dark now');
  });

  it('responses: a function_call item, then function_call_output continues the run', async () => {
    const { client } = await serve();
    const tools = [{ type: 'function' as const, name: 'set_theme', parameters, strict: false }];
    const first = await client.responses.create({ model: 'frontdesk', input: 'go light', tools });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'set_theme' });
    const second = await client.responses.create({
      model: 'frontdesk',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'light now' }],
      tools,
    });
    expect(second.output_text).toBe('Desk: light now');
  });

  it('LangChain bindTools: the AI message carries the tool call; the ToolMessage continues', async () => {
    const { baseURL } = await serve();
    const llm = new ChatOpenAI({
      model: 'frontdesk',
      apiKey: 'unused',
      configuration: { baseURL },
    });
    const withTools = llm.bindTools([
      {
        name: 'set_theme',
        description: 'Sets the page theme.',
        schema: z.object({ theme: z.string() }),
      },
    ]);
    const human = new HumanMessage('make it dark');
    const ai = await withTools.invoke([human]);
    expect(ai.tool_calls).toEqual([
      expect.objectContaining({ name: 'set_theme', args: { theme: 'dark' } }),
    ]);
    const tool = new ToolMessage({ tool_call_id: ai.tool_calls![0]!.id!, content: 'done: dark' });
    const answer = await withTools.invoke([human, ai, tool]);
    expect(answer.text).toBe('Desk: done: dark');
  });

  it('tool results nobody waits on are a 400 naming the field', async () => {
    const { baseURL } = await serve();
    const res = await post(`${baseURL}/chat/completions`, {
      model: 'frontdesk',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'call_unknown', content: 'y' },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { path: string } }).error.path).toBe('messages');
  });
});
