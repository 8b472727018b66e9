/**
 * OpenAI Responses wire format: a `response` object as JSON, or SSE events
 * (`response.created`, `response.output_item.added`, `response.output_text.delta`,
 * `response.output_item.done`, `response.completed`).
 */
import { chunks, uniqueId } from './wireServer.js';
import type { WireProtocol, WireToolCall } from './wireServer.js';

const usage = {
  input_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 7,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 19,
};

function outputItems(reply: { text: string } | { tools: WireToolCall[] }) {
  if ('text' in reply) {
    return [
      {
        type: 'message',
        id: uniqueId('msg'),
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      },
    ];
  }
  return reply.tools.map((tool) => ({
    type: 'function_call',
    id: uniqueId('fc'),
    call_id: uniqueId('call'),
    name: tool.name,
    arguments: JSON.stringify(tool.args),
    status: 'completed',
  }));
}

function responseObject(body: Record<string, any>, output: unknown[], status: string) {
  return {
    id: uniqueId('resp'),
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: body.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: status === 'completed' ? usage : null,
    error: null,
    incomplete_details: null,
  };
}

/** The Responses protocol. */
export const openaiResponsesProtocol: WireProtocol = {
  name: 'openai-responses',
  path: '/v1/responses',
  json(reply, body) {
    return responseObject(body, outputItems(reply), 'completed');
  },
  sse(reply, body) {
    const items = outputItems(reply);
    const final = responseObject(body, items, 'completed');
    let sequence = 0;
    const frame = (type: string, data: Record<string, unknown>) => ({
      event: type,
      data: { type, sequence_number: sequence++, ...data },
    });
    const frames = [
      frame('response.created', {
        response: { ...final, status: 'in_progress', output: [], usage: null },
      }),
    ];
    items.forEach((item, index) => {
      if (item.type === 'message') {
        frames.push(
          frame('response.output_item.added', {
            output_index: index,
            item: { ...item, status: 'in_progress', content: [] },
          }),
        );
        const text = (item as { content: Array<{ text: string }> }).content[0]!.text;
        for (const delta of chunks(text)) {
          frames.push(
            frame('response.output_text.delta', {
              item_id: item.id,
              output_index: index,
              content_index: 0,
              delta,
              logprobs: [],
            }),
          );
        }
      } else {
        frames.push(
          frame('response.output_item.added', {
            output_index: index,
            item: { ...item, arguments: '', status: 'in_progress' },
          }),
        );
      }
      frames.push(frame('response.output_item.done', { output_index: index, item }));
    });
    frames.push(frame('response.completed', { response: final }));
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

/** The call ids of the tool results in a Responses request body. */
export function responsesToolResultIds(body: Record<string, any>): string[] {
  const input = Array.isArray(body.input)
    ? (body.input as Array<{ type?: string; call_id?: string }>)
    : [];
  return input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id!);
}
