// Colloquy registers one processor through the SDK's public API and never patches the provider:
// when other code replaces the SDK's processors it registers again before the next trace, and
// restoreTraceProcessors() drops processors a second SDK copy added.
import {
  addTraceProcessor,
  BatchTraceProcessor,
  ConsoleSpanExporter,
  getGlobalTraceProvider,
  setTraceProcessors,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { getTraceRecorder, restoreTraceProcessors, setupTracing } from '../../src/tracing/setup.js';
import { traceCall } from '../../src/tracing/traceCall.js';

function spy(): TracingProcessor & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    async onTraceStart(trace) {
      seen.push(trace.traceId);
    },
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd() {},
    async shutdown() {},
    async forceFlush() {},
  };
}

describe('setupTracing and processors registered by others', () => {
  const env = { COLLOQUY_TRACING: 'on' } as NodeJS.ProcessEnv;
  afterEach(() => setupTracing({ env }));

  it('leaves the SDK provider unpatched', () => {
    setupTracing({ env });
    const provider = getGlobalTraceProvider();
    expect(Object.getOwnPropertyNames(provider)).not.toContain('setProcessors');
    expect(Object.getOwnPropertyNames(provider)).not.toContain('registerProcessor');
  });

  it('registers again before the next call when the SDK replaced every processor', async () => {
    const recorder = setupTracing({ env });
    const ended: string[] = [];
    const unsubscribe = recorder.subscribe({
      onTraceEnd: (trace) => {
        ended.push(trace.trace.traceId);
      },
    });
    const exported: string[] = [];
    const exporter = new ConsoleSpanExporter();
    exporter.export = async (items) => {
      exported.push(...items.map((item) => item.type));
    };
    const foreign = new BatchTraceProcessor(exporter);
    setTraceProcessors([foreign]); // as importing @openai/agents does
    const traceId = await traceCall({ name: 'probe' }, async () => {
      const current = getGlobalTraceProvider().getCurrentTrace();
      return current?.traceId;
    });
    await foreign.forceFlush();
    expect(ended).toEqual([traceId]);
    expect(exported).toEqual([]); // replaced again, so it saw nothing
    unsubscribe();
  });

  it('restoreTraceProcessors drops a processor added with addTraceProcessor', async () => {
    setupTracing({ env });
    const added = spy();
    addTraceProcessor(added); // as a second copy of the SDK does with its console exporter
    restoreTraceProcessors();
    await traceCall({ name: 'probe' }, async () => undefined);
    expect(added.seen).toEqual([]);
    expect(getTraceRecorder().persist).toBe(true);
  });

  it('keeps processors passed to setupTracing', async () => {
    const mine = spy();
    setupTracing({ env, processors: [mine] });
    setTraceProcessors([]);
    const traceId = await traceCall(
      { name: 'probe' },
      async () => getGlobalTraceProvider().getCurrentTrace()?.traceId,
    );
    expect(mine.seen).toEqual([traceId]);
  });
});
