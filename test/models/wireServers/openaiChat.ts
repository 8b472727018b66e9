/**
 * OpenAI Chat Completions wire format (also what Ollama's and other OpenAI-compatible servers'
 * `/v1/chat/completions` speak): JSON and SSE `chat.completion.chunk` frames ending in `[DONE]`.
 */
import { chunks, uniqueId } from './wireServer.js';
import type { WireProtocol, WireToolCall } from './wireServer.js';

const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };

function toolCalls(tools: WireToolCall[]) {
  return tools.map((tool) => ({
    id: uniqueId('call'),
    type: 'function',
    function: { name: tool.name, arguments: JSON.stringify(tool.args) },
  }));
}

/** The Chat Completions protocol. */
export const openaiChatProtocol: WireProtocol = {
  name: 'openai-chat',
  path: '/v1/chat/completions',
  json(reply, body) {
    const isText = 'text' in reply;
    return {
      id: uniqueId('chatcmpl'),
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: isText
            ? { role: 'assistant', content: reply.text }
            : { role: 'assistant', content: null, tool_calls: toolCalls(reply.tools) },
          finish_reason: isText ? 'stop' : 'tool_calls',
        },
      ],
      usage,
    };
  },
  sse(reply, body) {
    const id = uniqueId('chatcmpl');
    const frame = (delta: unknown, finish: string | null = null) => ({
      data: {
        id,
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      },
    });
    const frames: Array<{ event?: string; data: unknown }> = [
      frame({ role: 'assistant', content: '' }),
    ];
    if ('text' in reply) {
      for (const piece of chunks(reply.text)) frames.push(frame({ content: piece }));
      frames.push(frame({}, 'stop'));
    } else {
      toolCalls(reply.tools).forEach((call, index) => {
        frames.push(
          frame({
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.function.name, arguments: '' },
              },
            ],
          }),
        );
        frames.push(
          frame({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }),
        );
      });
      frames.push(frame({}, 'tool_calls'));
    }
    frames.push({
      data: {
        id,
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: body.model,
        choices: [],
        usage,
      },
    });
    frames.push({ data: '[DONE]' });
    return frames;
  },
  error(status) {
    return {
      error: {
        message: `scripted failure ${status}`,
        type: status === 429 ? 'rate_limit_error' : 'server_error',
        code: null,
      },
    };
  },
};

/** The call ids of the tool results in a Chat Completions request body. */
export function chatToolResultIds(body: Record<string, any>): string[] {
  return (body.messages as Array<{ role: string; tool_call_id?: string }>)
    .filter((m) => m.role === 'tool')
    .map((m) => m.tool_call_id!);
}

/** The text of the last user message of a Chat Completions request body. */
export function chatLastUserText(body: Record<string, any>): string {
  const users = (body.messages as Array<{ role: string; content: unknown }>).filter(
    (m) => m.role === 'user',
  );
  const content = users.at(-1)?.content;
  return typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: string }) => p.text ?? '').join('')
      : '';
}
