/**
 * Anthropic Messages wire format: a `message` as JSON, or SSE events (`message_start`,
 * `content_block_start`, `content_block_delta` with `text_delta`/`input_json_delta`,
 * `content_block_stop`, `message_delta`, `message_stop`).
 */
import { chunks, uniqueId } from './wireServer.js';
import type { WireProtocol, WireToolCall } from './wireServer.js';

function blocks(reply: { text: string } | { tools: WireToolCall[] }) {
  if ('text' in reply) return [{ type: 'text', text: reply.text }];
  return reply.tools.map((tool) => ({
    type: 'tool_use',
    id: uniqueId('toolu'),
    name: tool.name,
    input: tool.args,
  }));
}

/** The Messages protocol. */
export const anthropicMessagesProtocol: WireProtocol = {
  name: 'anthropic-messages',
  path: '/v1/messages',
  json(reply, body) {
    return {
      id: uniqueId('msg'),
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: blocks(reply),
      stop_reason: 'text' in reply ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 7 },
    };
  },
  sse(reply, body) {
    const frame = (type: string, data: Record<string, unknown>) => ({
      event: type,
      data: { type, ...data },
    });
    const message = {
      id: uniqueId('msg'),
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    };
    const frames = [frame('message_start', { message })];
    blocks(reply).forEach((block, index) => {
      if (block.type === 'text') {
        frames.push(
          frame('content_block_start', { index, content_block: { type: 'text', text: '' } }),
        );
        for (const text of chunks((block as { text: string }).text)) {
          frames.push(frame('content_block_delta', { index, delta: { type: 'text_delta', text } }));
        }
      } else {
        const use = block as { id: string; name: string; input: unknown };
        frames.push(
          frame('content_block_start', {
            index,
            content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} },
          }),
        );
        frames.push(
          frame('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) },
          }),
        );
      }
      frames.push(frame('content_block_stop', { index }));
    });
    frames.push(
      frame('message_delta', {
        delta: { stop_reason: 'text' in reply ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: 7 },
      }),
    );
    frames.push(frame('message_stop', {}));
    return frames;
  },
  error(status) {
    const type =
      status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
    return { type: 'error', error: { type, message: `scripted failure ${status}` } };
  },
};

/** The tool_use ids answered by tool_result blocks in a Messages request body. */
export function anthropicToolResultIds(body: Record<string, any>): string[] {
  const ids: string[] = [];
  for (const message of body.messages as Array<{ content: unknown }>) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; tool_use_id?: string }>) {
      if (block.type === 'tool_result') ids.push(block.tool_use_id!);
    }
  }
  return ids;
}
