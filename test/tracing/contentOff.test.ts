// COLLOQUY_TRACE_CONTENT=off means no message or tool text leaves through any exporter (issue
// 23): the recorder's stored trace, OTLP (a loopback receiver) and every other SDK trace
// processor (one passed to setupTracing, one the SDK adds itself) see none of it.
import {
  addTraceProcessor,
  BatchTraceProcessor,
  type TracingExporter,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { flushTracing, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlpReceiver.js';

const SECRET = 'Zanzibar-tide-secret';

/** A processor that keeps the JSON of every span it is handed. */
function collector(): TracingProcessor & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd(span) {
      seen.push(JSON.stringify(span.toJSON()), JSON.stringify(span.spanData));
    },
    async shutdown() {},
    async forceFlush() {},
  };
}

/** A user's batch exporter (the SDK's own, unnamed so that it is not taken for the default). */
class UserBatch extends BatchTraceProcessor {}

/** A batch processor (as the SDK's default exporter) whose exporter keeps what it is sent. */
function batch(): { processor: BatchTraceProcessor; sent: string[] } {
  const sent: string[] = [];
  const exporter: TracingExporter = {
    async export(items) {
      for (const item of items) sent.push(JSON.stringify(item.toJSON()));
    },
  };
  return { processor: new UserBatch(exporter, { scheduleDelay: 10 }), sent };
}

async function call(chatId: string): Promise<MemoryStore> {
  const store = new MemoryStore();
  const agency = createDemoAgency({ threads: new ThreadManager({ store }) });
  await agency.getResponse(`Write a brief about ${SECRET}.`, { chatId });
  await flushTracing();
  return store;
}

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await shutdownTracing();
  await receiver.close();
});

describe('COLLOQUY_TRACE_CONTENT=off', () => {
  it('with content on, every exporter sees the text (the control)', async () => {
    const processor = collector();
    setupTracing({ env: { COLLOQUY_TRACING: 'on' }, processors: [processor] });
    const store = await call('on');
    const [summary] = await (await traceStoreFor(store)).listTraces({ chatId: 'on' });
    const stored = await (await traceStoreFor(store)).getTrace(summary!.traceId);
    expect(JSON.stringify(stored)).toContain(SECRET);
    expect(processor.seen.join('\n')).toContain(SECRET);
  });

  it('the recorder, OTLP and every SDK processor see no message or tool text', async () => {
    const processor = collector();
    const env = {
      COLLOQUY_TRACING: 'on',
      COLLOQUY_TRACE_CONTENT: 'off',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    };
    setupTracing({ env, processors: [processor] });
    const added = batch();
    addTraceProcessor(added.processor);
    const store = await call('off');
    await added.processor.forceFlush();
    await expect.poll(() => receiver.spans.length, { timeout: 5000 }).toBeGreaterThan(10);

    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ chatId: 'off' });
    const stored = await traces.getTrace(summary!.traceId);
    expect(stored!.spans.length).toBeGreaterThan(10);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(receiver.spans)).not.toContain(SECRET);
    expect(processor.seen.length).toBeGreaterThan(10);
    expect(processor.seen.join('\n')).not.toContain(SECRET);
    expect(added.sent.length).toBeGreaterThan(10);
    expect(added.sent.join('\n')).not.toContain(SECRET);
    await added.processor.shutdown();
  });
});
