// Contract: the SDK's public setTraceProcessors shuts the processors it replaces down. Colloquy's
// hub (src/tracing/hub.ts) relies on it to know that it was replaced and must register again.
import {
  addTraceProcessor,
  getGlobalTraceProvider,
  setTraceProcessors,
  setTracingDisabled,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';

function processor(log: string[], name: string): TracingProcessor {
  return {
    async onTraceStart() {
      log.push(`${name} start`);
    },
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd() {},
    async shutdown() {
      log.push(`${name} shutdown`);
    },
    async forceFlush() {},
  };
}

afterEach(() => setTraceProcessors([]));

describe('sdk: setTraceProcessors', () => {
  it('shuts each replaced processor down, and only those', () => {
    const log: string[] = [];
    const first = processor(log, 'first');
    setTraceProcessors([first]);
    addTraceProcessor(processor(log, 'added'));
    setTraceProcessors([processor(log, 'next')]);
    expect(log).toEqual(['first shutdown', 'added shutdown']);
  });

  it('feeds the new list from then on', async () => {
    const log: string[] = [];
    setTraceProcessors([processor(log, 'old')]);
    setTraceProcessors([processor(log, 'new')]);
    setTracingDisabled(false);
    const trace = getGlobalTraceProvider().createTrace({ name: 'contract' });
    await trace.start();
    expect(log).toEqual(['old shutdown', 'new start']);
  });
});
