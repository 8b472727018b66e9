import {
  addTraceProcessor,
  BatchTraceProcessor,
  ConsoleSpanExporter,
  getGlobalTraceProvider,
  setTraceProcessors,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { setupTracing } from '../../src/tracing/setup.js';

describe('setupTracing keeps the SDK default exporters out', () => {
  const env = { COLLOQUY_TRACING: 'on' } as NodeJS.ProcessEnv;
  afterEach(() => setupTracing({ env }));

  it('drops a console batch processor added later with addTraceProcessor (a second SDK copy)', async () => {
    const recorder = setupTracing({ env });
    const exported: string[] = [];
    const exporter = new ConsoleSpanExporter();
    exporter.export = async (items) => {
      exported.push(...items.map((item) => item.type));
    };
    addTraceProcessor(new BatchTraceProcessor(exporter));
    const seen: string[] = [];
    const spy: TracingProcessor = {
      async onTraceStart(trace) {
        seen.push(trace.traceId);
      },
      async onTraceEnd() {},
      async onSpanStart() {},
      async onSpanEnd() {},
      async shutdown() {},
      async forceFlush() {},
    };
    addTraceProcessor(spy);
    const trace = getGlobalTraceProvider().createTrace({ name: 'probe' });
    await trace.start();
    await trace.end();
    await getGlobalTraceProvider().forceFlush();
    expect(seen).toEqual([trace.traceId]);
    expect(exported).toEqual([]);
    expect(recorder.persist).toBe(true);
  });

  it('still keeps the recorder when the SDK replaces every processor', async () => {
    const recorder = setupTracing({ env });
    const ended: string[] = [];
    const unsubscribe = recorder.subscribe({
      onTraceEnd: (trace) => {
        ended.push(trace.trace.traceId);
      },
    });
    setTraceProcessors([new BatchTraceProcessor(new ConsoleSpanExporter())]);
    const trace = getGlobalTraceProvider().createTrace({ name: 'probe' });
    await trace.start();
    await trace.end();
    expect(ended).toEqual([trace.traceId]);
    unsubscribe();
  });
});
