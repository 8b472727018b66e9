// The SDK's OpenAI Responses model on a loopback-free fake fetch: one canned response, so the
// contract tests see what the real model puts on its spans without a network.
import { OpenAIResponsesModel } from '@openai/agents-openai';
import OpenAI from 'openai';

/** A canned Responses API answer saying `text`, with usage 7 in / 3 out. */
function response(text: string): Record<string, unknown> {
  return {
    id: 'resp_contract',
    object: 'response',
    created_at: 0,
    model: 'gpt-contract',
    status: 'completed',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 7,
      output_tokens: 3,
      total_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** An `OpenAIResponsesModel` whose client answers every call with `text`. */
export function cannedResponsesModel(text: string): OpenAIResponsesModel {
  const client = new OpenAI({
    apiKey: 'sk-contract-test',
    baseURL: 'http://contract.invalid/v1',
    fetch: async () =>
      new Response(JSON.stringify(response(text)), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  });
  return new OpenAIResponsesModel(client, 'gpt-contract');
}
