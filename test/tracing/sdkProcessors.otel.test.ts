import { Runner } from '@openai/agents-core';
import { trace as otelTrace } from '@opentelemetry/api';
import type { Context, Span, SpanOptions, Tracer } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel } from '../../src/models/resolve.js';
import { configureTracing } from '../../src/tracing/configure.js';
import { OpenTelemetryTracingProcessor } from '../../src/tracing/sdkProcessors.js';
import { runDemoFlow } from '../models/demoFlow.js';

interface FakeSpan {
  name: string;
  id: string;
  parent?: string;
  attributes: Record<string, unknown>;
  ended: boolean;
}

function fakeTracer(): { tracer: Tracer; spans: FakeSpan[] } {
  const spans: FakeSpan[] = [];
  const tracer = {
    startSpan(name: string, _options?: SpanOptions, context?: Context): Span {
      const parent = context
        ? (otelTrace.getSpan(context) as unknown as { record?: FakeSpan } | undefined)
        : undefined;
      const record: FakeSpan = {
        name,
        id: String(spans.length + 1),
        parent: parent?.record?.id,
        attributes: {},
        ended: false,
      };
      spans.push(record);
      const span = {
        record,
        spanContext: () => ({
          traceId: '0'.repeat(31) + '1',
          spanId: record.id.padStart(16, '0'),
          traceFlags: 1,
        }),
        setAttributes: (attributes: Record<string, unknown>) =>
          Object.assign(record.attributes, attributes),
        setStatus: () => span,
        end: () => void (record.ended = true),
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

describe('OpenTelemetryTracingProcessor', () => {
  afterEach(() => configureTracing());

  it('mirrors SDK spans with their nesting and ends them all', async () => {
    const { tracer, spans } = fakeTracer();
    configureTracing({ processors: [new OpenTelemetryTracingProcessor({ tracer })] });
    const registry = createProfileRegistry([
      {
        source: 'test',
        baseDir: process.cwd(),
        profiles: {
          c: {
            provider: 'scripted',
            model: 'c',
            script: [
              { tool: 'send_message', args: { recipient: 'Writer', message: 'hi' } },
              'done',
            ],
          },
          w: { provider: 'scripted', model: 'w', script: ['haiku'] },
        },
      },
    ]);
    const options = { env: {}, record: false as const, logger: createLogger({ level: 'silent' }) };
    await runDemoFlow(
      {
        coordinator: createModel('c', registry, options),
        writer: createModel('w', registry, options),
        runner: new Runner(),
      },
      'go',
    );
    const byId = new Map(spans.map((span) => [span.id, span]));
    const writer = spans.find((span) => span.name === 'agent Writer')!;
    const tool = spans.find((span) => span.name === 'function send_message')!;
    const ancestors: string[] = [];
    for (let at = writer.parent; at; at = byId.get(at)?.parent) ancestors.push(at);
    expect(ancestors).toContain(tool.id);
    // The SDK ends the trace without waiting; the root span ends when every processor has it.
    await expect.poll(() => spans.every((span) => span.ended)).toBe(true);
    expect(
      spans.find((span) => span.name === 'custom model_attempt')?.attributes[
        'colloquy.data.outcome'
      ],
    ).toBe('success');
  });
});
