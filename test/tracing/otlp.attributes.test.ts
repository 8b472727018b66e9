// OTLP facets: GenAI attributes of each span kind, and createOtlpListener on its own against the
// loopback receiver (error status, skipped exports, trace root, ensemble spans).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanRecord, StoredTrace } from '../../src/stores/traceStore.js';
import { storedTrace } from '../../src/testing/traceStoreConformance.js';
import { createOtlpListener, genAiAttributes, genAiName } from '../../src/tracing/otlp.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlpReceiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

function spanOf(kind: SpanRecord['kind'], name: string, attributes: Record<string, unknown>) {
  return { spanId: 's', traceId: 't', parentId: null, kind, name, startedAt: '', attributes };
}

describe('genAiAttributes', () => {
  const trace = storedTrace('t', { chatId: 'chat-9' });

  it('describes a model call with request/response model, provider and tokens', () => {
    const attributes = genAiAttributes(
      spanOf('generation', 'gpt-x', {
        agent: 'Writer',
        model: 'gpt-x',
        provider: 'openai',
        inputTokens: 12,
        outputTokens: 3,
        attempts: [{ profile: 'a' }],
      }),
      trace,
    );
    expect(attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-x',
      'gen_ai.response.model': 'gpt-x',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.agent.name': 'Writer',
      'gen_ai.conversation.id': 'chat-9',
      'colloquy.span.kind': 'generation',
      'colloquy.model': 'gpt-x',
    });
    // Only scalar attributes are copied.
    expect(attributes['colloquy.attempts']).toBeUndefined();
  });

  it('describes agents (also ensemble agents) and tools; other kinds get no operation', () => {
    expect(
      genAiAttributes(spanOf('ensemble_agent', 'critic', { agent: 'critic' }), trace),
    ).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'critic' });
    expect(genAiName(spanOf('ensemble_agent', 'critic', {})).name).toBe('invoke_agent critic');
    expect(
      genAiAttributes(spanOf('send_message', 'send_message', { tool: 'send_message' }), trace),
    ).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'send_message',
    });
    const step = genAiAttributes(spanOf('ensemble_step', 'step 1', {}), trace);
    expect(step['gen_ai.operation.name']).toBeUndefined();
    expect(genAiName(spanOf('generation', 'fallback', {})).name).toBe('chat fallback');
  });

  it('leaves out the conversation id of a trace without a chat', () => {
    const attributes = genAiAttributes(spanOf('agent', 'A', { agent: 'A' }), storedTrace('x'));
    expect(attributes['gen_ai.conversation.id']).toBeUndefined();
  });
});

describe('createOtlpListener', () => {
  it('sends a trace under a root span, marks failed spans as errors, and skips unexported traces', async () => {
    const listener = await createOtlpListener({
      url: `${receiver.url}/v1/traces`,
      serviceName: 'otlp-unit',
    });
    const trace: StoredTrace = storedTrace('unit-1', { chatId: 'c', runId: 'r', spans: 3 });
    await listener.onTraceEnd!(trace, {});
    await listener.onTraceEnd!(storedTrace('unit-2', { spans: 2 }), { export: false });
    await listener.forceFlush();
    await expect.poll(() => receiver.spans.length, { timeout: 5000 }).toBe(4);
    await listener.close();

    const root = receiver.spans.find((span) => span.parentSpanId === '')!;
    expect(root.name).toBe('agency unit-1');
    expect(root.attributes).toMatchObject({
      'colloquy.trace_id': 'unit-1',
      'gen_ai.conversation.id': 'c',
      'colloquy.run_id': 'r',
      'colloquy.agency': 'team',
    });
    expect(root.service).toBe('otlp-unit');
    const agent = receiver.spans.find((span) => span.name === 'invoke_agent Writer')!;
    expect(agent.parentSpanId).toBe(root.spanId);
    const chats = receiver.spans.filter((span) => span.name === 'chat gpt-4.1-mini');
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(chat.parentSpanId).toBe(agent.spanId);
    const failed = chats.find((span) => span.status.code === 2)!;
    expect(failed.status.message).toMatch(/model failed/);
    expect(failed.attributes['error.type']).toBe('error');
    expect(receiver.spans.some((span) => span.name === 'agency unit-2')).toBe(false);
  });
});
