import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { genAiName, otlpRequested, otlpTracesUrl } from '../../src/tracing/otlp.js';
import { flushTracing, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlpReceiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await shutdownTracing();
  await receiver.close();
});

describe('OTLP export', () => {
  it('reads the standard endpoint variables', () => {
    expect(otlpRequested({})).toBe(false);
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/' })).toBe(
      'http://h:4318/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/x',
      }),
    ).toBe('http://t:1/x');
  });

  it('sends one trace per agency call with GenAI span names, nested as the calls nest', async () => {
    setupTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'otlp-test' },
    });
    const agency = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
    await agency.getResponse('Write a brief about tides.', { chatId: 'otlp-chat' });
    await flushTracing();
    await expect.poll(() => receiver.spans.length, { timeout: 5000 }).toBeGreaterThan(10);

    const traceIds = new Set(receiver.spans.map((span) => span.traceId));
    expect(traceIds.size).toBe(1);
    const byId = new Map(receiver.spans.map((span) => [span.spanId, span]));
    const chats = receiver.spans.filter((span) => span.name.startsWith('chat '));
    expect(chats).toHaveLength(7);
    for (const chat of chats) {
      const parent = byId.get(chat.parentSpanId)!;
      expect(parent.name).toMatch(/^invoke_agent /);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
        'gen_ai.conversation.id': 'otlp-chat',
      });
      expect(chat.attributes['gen_ai.agent.name']).toBe(parent.attributes['gen_ai.agent.name']);
    }
    const editor = receiver.spans.find((span) => span.name === 'invoke_agent Editor')!;
    expect(byId.get(editor.parentSpanId)!.name).toBe('execute_tool send_message');
    expect(receiver.spans.find((span) => span.name === 'agency demo')!.parentSpanId).toBe('');
    expect(receiver.spans[0]!.service).toBe('otlp-test');
  });

  it('names other spans by kind', () => {
    const base = { spanId: 's', traceId: 't', parentId: null, startedAt: '', attributes: {} };
    expect(genAiName({ ...base, kind: 'ensemble_step', name: 'analyze' }).name).toBe(
      'ensemble_step analyze',
    );
    expect(
      genAiName({ ...base, kind: 'function', name: 'search', attributes: { tool: 'search' } }),
    ).toEqual({ operation: 'execute_tool', name: 'execute_tool search' });
  });
});
