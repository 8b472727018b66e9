// A model for the SDK contract tests that imports nothing but the SDK, so that the tests run
// against any copy of @openai/agents-core (see docs/sdk.md, "Checking an SDK version").
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { Usage } from '@openai/agents-core';

/** One scripted answer: a text, a function call, or an error to throw. */
export type Step = { text: string } | { call: string; args?: object } | { error: Error };

/** A model that answers with `steps` in order and keeps every request it was given. */
export function fakeModel(steps: Step[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let index = 0;
  return {
    requests,
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      requests.push(request);
      const step = steps[Math.min(index++, steps.length - 1)]!;
      if ('error' in step) throw step.error;
      const output =
        'text' in step
          ? [
              {
                type: 'message' as const,
                role: 'assistant' as const,
                status: 'completed' as const,
                content: [{ type: 'output_text' as const, text: step.text }],
              },
            ]
          : [
              {
                type: 'function_call' as const,
                callId: `call_${index}`,
                name: step.call,
                arguments: JSON.stringify(step.args ?? {}),
                status: 'completed' as const,
              },
            ];
      return { output, usage: new Usage({ inputTokens: 1, outputTokens: 1 }) } as ModelResponse;
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse(): AsyncIterable<StreamEvent> {
      throw new Error('fakeModel does not stream');
    },
  };
}
