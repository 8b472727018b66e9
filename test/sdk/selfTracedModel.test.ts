// Contract: the SDK models Colloquy leaves unwrapped exist under the listed names and trace
// their own calls.
import * as openai from '@openai/agents-openai';
import {
  Agent,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  withTrace,
  type Model,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  opensOwnGenerationSpans,
  SELF_TRACED_MODEL_CLASSES,
} from '../../src/sdk/selfTracedModel.js';
import { cannedResponsesModel } from './openaiResponses.js';
import { fakeModel } from './fakeModel.js';

afterEach(() => setTraceProcessors([]));

describe('sdk: opensOwnGenerationSpans', () => {
  it('names classes that the OpenAI package exports', () => {
    const exported = Object.keys(openai).filter((name) => SELF_TRACED_MODEL_CLASSES.includes(name));
    expect(exported.sort()).toEqual([
      'OpenAIChatCompletionsModel',
      'OpenAIResponsesModel',
      'OpenAIResponsesWSModel',
    ]);
  });

  it('recognises the OpenAI model (and a subclass), not a plain model', () => {
    const model = cannedResponsesModel('x');
    class Tuned extends openai.OpenAIResponsesModel {}
    expect(opensOwnGenerationSpans(model)).toBe(true);
    expect(opensOwnGenerationSpans(Object.create(Tuned.prototype) as Model)).toBe(true);
    expect(opensOwnGenerationSpans(fakeModel([{ text: 'x' }]))).toBe(false);
  });

  it('the OpenAI model does open its own span for each call', async () => {
    const types: string[] = [];
    const collector: TracingProcessor = {
      async onTraceStart() {},
      async onTraceEnd() {},
      async onSpanStart(span) {
        types.push(span.spanData.type);
      },
      async onSpanEnd() {},
      async shutdown() {},
      async forceFlush() {},
    };
    setTraceProcessors([collector]);
    setTracingDisabled(false);
    const agent = new Agent({ name: 'Writer', model: cannedResponsesModel('ok') });
    await withTrace('contract', () => new Runner().run(agent, 'hi'));
    expect(types.filter((type) => type === 'response' || type === 'generation')).toHaveLength(1);
  });
});
