// Contract: the SDK's OpenAI Responses model keeps input, output and usage on its response span.
import {
  Agent,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  withTrace,
  type SpanData,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  responseSpanInput,
  responseSpanOutput,
  responseSpanUsage,
  responseSpanWithoutContent,
} from '../../src/sdk/responseSpanData.js';
import { cannedResponsesModel } from './openaiResponses.js';

afterEach(() => setTraceProcessors([]));

async function responseSpan(): Promise<SpanData> {
  const ended: SpanData[] = [];
  const collector: TracingProcessor = {
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd(span) {
      ended.push(span.spanData);
    },
    async shutdown() {},
    async forceFlush() {},
  };
  setTraceProcessors([collector]);
  setTracingDisabled(false);
  const agent = new Agent({ name: 'Writer', model: cannedResponsesModel('The tide is high.') });
  await withTrace('contract', () => new Runner().run(agent, 'Tell me about the tide.'));
  const span = ended.find((data) => data.type === 'response');
  if (!span) throw new Error(`no response span among ${ended.map((d) => d.type).join(', ')}`);
  return span;
}

describe('sdk: responseSpanData', () => {
  it('reads the input items, output items and usage of a response span', async () => {
    const data = await responseSpan();
    expect(JSON.stringify(responseSpanInput(data))).toContain('Tell me about the tide.');
    expect(JSON.stringify(responseSpanOutput(data))).toContain('The tide is high.');
    expect(responseSpanUsage(data)).toMatchObject({ input_tokens: 7, output_tokens: 3 });
  });

  it('removes the text but keeps the usage', async () => {
    const data = await responseSpan();
    const stripped = responseSpanWithoutContent(data);
    expect(JSON.stringify(stripped)).not.toContain('tide');
    expect(responseSpanUsage(stripped)).toMatchObject({ input_tokens: 7, output_tokens: 3 });
    expect(responseSpanInput(data)).toBeDefined(); // the SDK's own span data is left as it was
  });

  it('reads nothing from other span kinds', () => {
    const data = { type: 'function', name: 'f', input: 'x', output: 'y' } as unknown as SpanData;
    expect(responseSpanInput(data)).toBeUndefined();
    expect(responseSpanWithoutContent(data)).toBe(data);
  });
});
