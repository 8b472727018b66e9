// Contract: the runner tells a model which span its call belongs under.
import {
  Agent,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  withTrace,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requestTracingParent } from '../../src/sdk/requestTracingParent.js';
import { fakeModel } from './fakeModel.js';

afterEach(() => setTraceProcessors([]));

describe('sdk: requestTracingParent', () => {
  it('is an open agent or turn span of the current trace', async () => {
    const started: Array<{ spanId: string; type: string; traceId: string }> = [];
    const collector: TracingProcessor = {
      async onTraceStart() {},
      async onTraceEnd() {},
      async onSpanStart(span) {
        started.push({ spanId: span.spanId, type: span.spanData.type, traceId: span.traceId });
      },
      async onSpanEnd() {},
      async shutdown() {},
      async forceFlush() {},
    };
    setTraceProcessors([collector]);
    setTracingDisabled(false);
    const model = fakeModel([{ text: 'ok' }]);
    const agent = new Agent({ name: 'Traced', model });
    const traceId = await withTrace('contract', async (trace) => {
      await new Runner().run(agent, 'hi');
      return trace.traceId;
    });
    const parent = requestTracingParent(model.requests[0]!) as
      { spanId?: string; traceId?: string } | undefined;
    expect(parent?.traceId).toBe(traceId);
    const span = started.find((s) => s.spanId === parent?.spanId);
    expect(['agent', 'turn']).toContain(span?.type);
  });
});
