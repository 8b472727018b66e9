// Must-show 5 of issue 23: with COLLOQUY_TRACE_CONTENT=off no message or tool text leaves through
// any exporter, checked one exporter at a time: the recorder's stored trace, OTLP (an in-memory
// OpenTelemetry exporter) and SDK trace processors. Each test first runs with content on (the
// control: the text is there), then off. The calls cover tool arguments and messages
// (send_message) and the OpenAI Responses model's own span (`_input`/`_response`), on a Runner
// that keeps sensitive data, so that the filter, not the Runner, has to remove it.
import { Agent, Runner, type TracingProcessor } from '@openai/agents-core';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { createOtlpListener } from '../../src/tracing/otlp.js';
import {
  InMemoryTracingProcessor,
  OpenTelemetryTracingProcessor,
} from '../../src/tracing/sdkProcessors.js';
import {
  flushTracing,
  getTraceRecorder,
  setupTracing,
  shutdownTracing,
} from '../../src/tracing/setup.js';
import { cannedResponsesModel } from '../sdk/openaiResponses.js';

const SECRET = 'Zanzibar-tide-secret';
type Content = 'on' | 'off';

afterEach(() => shutdownTracing());

function setup(content: Content, processors: TracingProcessor[] = []): void {
  setupTracing({
    env: { COLLOQUY_TRACING: 'on', COLLOQUY_TRACE_CONTENT: content },
    processors,
  });
}

/** Two agency calls carrying the secret; returns what the recorder saved. */
async function calls(chatId: string): Promise<string> {
  const store = new MemoryStore();
  const threads = new ThreadManager({ store });
  await createDemoAgency({ threads }).getResponse(`Write a brief about ${SECRET}.`, { chatId });
  const writer = new Agent({ name: 'Writer', model: cannedResponsesModel(`All about ${SECRET}.`) });
  const direct = new Agency({ entryPoints: [writer], threads, runner: new Runner() });
  await direct.getResponse(`Tell me about ${SECRET}.`, { chatId: `${chatId}-openai` });
  await flushTracing();
  const traces = await traceStoreFor(store);
  const saved = await Promise.all(
    (await traces.listTraces()).map((summary) => traces.getTrace(summary.traceId)),
  );
  expect(saved.length).toBe(2);
  return JSON.stringify(saved);
}

describe('COLLOQUY_TRACE_CONTENT=off, exporter by exporter', () => {
  it('the recorder saves no message or tool text', async () => {
    setup('on');
    expect(await calls('recorder-on')).toContain(SECRET);
    setup('off');
    const stored = await calls('recorder-off');
    expect(stored).toContain('send_message'); // the spans are there, their text is not
    expect(stored).not.toContain(SECRET);
  });

  it('OTLP (an in-memory OpenTelemetry exporter) gets no message or tool text', async () => {
    const seen = async (content: Content): Promise<string> => {
      setup(content);
      const exporter = new InMemorySpanExporter();
      const otlp = await createOtlpListener({ exporter });
      const unsubscribe = getTraceRecorder().subscribe(otlp);
      await calls(`otlp-${content}`);
      await otlp.forceFlush();
      unsubscribe();
      const spans = exporter.getFinishedSpans();
      expect(spans.length).toBeGreaterThan(10);
      await otlp.close();
      return JSON.stringify(
        spans.map((span) => ({ name: span.name, attributes: span.attributes })),
      );
    };
    expect(await seen('on')).toContain(SECRET);
    const off = await seen('off');
    expect(off).toContain('execute_tool send_message');
    expect(off).not.toContain(SECRET);
  });

  it('SDK trace processors (in memory, OpenTelemetry) get no message or tool text', async () => {
    const seen = async (content: Content): Promise<string> => {
      const memory = new InMemoryTracingProcessor();
      const exporter = new InMemorySpanExporter();
      const provider = new TracerProvider({
        spanProcessors: [new SimpleSpanProcessor({ exporter })],
      });
      const otel = new OpenTelemetryTracingProcessor({ tracer: provider.getTracer('test') });
      setup(content, [memory, otel]);
      await calls(`sdk-${content}`);
      await expect.poll(() => memory.traces.length).toBe(2);
      const kinds = new Set(memory.spans.map((span) => span.data.type));
      expect(kinds).toEqual(expect.objectContaining(new Set(['function', 'response'])));
      const otelSpans = exporter.getFinishedSpans().map((span) => span.attributes);
      return JSON.stringify({ memory: memory.spans, otel: otelSpans });
    };
    expect(await seen('on')).toContain(SECRET);
    const off = await seen('off');
    expect(off).toContain('send_message');
    expect(off).not.toContain(SECRET);
  });
});
