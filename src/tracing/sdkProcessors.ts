/**
 * Two SDK trace processors for direct use: {@link InMemoryTracingProcessor} keeps finished spans
 * in memory (tests, debugging); {@link OpenTelemetryTracingProcessor} turns SDK traces and spans
 * into OpenTelemetry spans through `@opentelemetry/api` (bring your own OpenTelemetry SDK). Pass
 * them to `setupTracing({ processors })`: with content off they get spans without message or
 * tool text, like every other processor.
 * @module
 */
import type { Span as SdkSpan, SpanData, Trace, TracingProcessor } from '@openai/agents-core';
import { context as otelContext, SpanStatusCode, trace as otelTrace } from '@opentelemetry/api';
import type { Attributes, Span as OtelSpan, Tracer } from '@opentelemetry/api';

/** A finished span as kept by {@link InMemoryTracingProcessor}. */
export interface RecordedSpan {
  traceId: string;
  spanId: string;
  parentId: string | null;
  data: SpanData;
  error: unknown;
}

/** A processor that keeps every finished span and trace name in memory. */
export class InMemoryTracingProcessor implements TracingProcessor {
  readonly spans: RecordedSpan[] = [];
  readonly traces: Array<{ traceId: string; name: string }> = [];

  async onTraceStart(trace: Trace): Promise<void> {
    this.traces.push({ traceId: trace.traceId, name: trace.name });
  }
  async onTraceEnd(): Promise<void> {}
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    this.spans.push({
      traceId: span.traceId,
      spanId: span.spanId,
      parentId: span.parentId,
      data: span.spanData,
      error: span.error,
    });
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

/** A readable span name: `agent Writer`, `function send_message`, `custom model_attempt`. */
export function sdkSpanName(data: SpanData): string {
  const named = data as { name?: string };
  return named.name ? `${data.type} ${named.name}` : data.type;
}

function attributesOf(data: SpanData): Attributes {
  const attributes: Attributes = { 'colloquy.span.type': data.type };
  const flatten = (prefix: string, value: unknown, depth: number) => {
    if (value === null || value === undefined || prefix.includes('._')) return;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      attributes[prefix] =
        typeof value === 'string' && value.length > 2_000 ? `${value.slice(0, 2_000)}…` : value;
    } else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      attributes[prefix] = value as string[];
    } else if (typeof value === 'object' && depth < 2) {
      for (const [key, item] of Object.entries(value)) flatten(`${prefix}.${key}`, item, depth + 1);
    }
  };
  for (const [key, value] of Object.entries(data))
    if (key !== 'type') flatten(`colloquy.${key}`, value, 0);
  return attributes;
}

/** Options of {@link OpenTelemetryTracingProcessor}. */
export interface OpenTelemetryTracingProcessorOptions {
  /** The tracer to use (default `trace.getTracer('colloquy')` of the registered provider). */
  tracer?: Tracer;
}

/**
 * Mirrors SDK traces into OpenTelemetry: each trace becomes a root span, each SDK span a child of
 * its SDK parent, with span data flattened into `colloquy.*` attributes and errors as status.
 */
export class OpenTelemetryTracingProcessor implements TracingProcessor {
  readonly #tracer: Tracer;
  readonly #open = new Map<string, OtelSpan>();

  constructor(options: OpenTelemetryTracingProcessorOptions = {}) {
    this.#tracer = options.tracer ?? otelTrace.getTracer('colloquy');
  }

  async onTraceStart(trace: Trace): Promise<void> {
    this.#open.set(
      trace.traceId,
      this.#tracer.startSpan(trace.name, { attributes: { 'colloquy.trace_id': trace.traceId } }),
    );
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    this.#open.get(trace.traceId)?.end();
    this.#open.delete(trace.traceId);
  }

  async onSpanStart(span: SdkSpan<SpanData>): Promise<void> {
    const parent = this.#open.get(span.parentId ?? span.traceId) ?? this.#open.get(span.traceId);
    const parentContext = parent
      ? otelTrace.setSpan(otelContext.active(), parent)
      : otelContext.active();
    this.#open.set(
      span.spanId,
      this.#tracer.startSpan(sdkSpanName(span.spanData), {}, parentContext),
    );
  }

  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    const otel = this.#open.get(span.spanId);
    if (!otel) return;
    otel.setAttributes(attributesOf(span.spanData));
    if (span.error) otel.setStatus({ code: SpanStatusCode.ERROR, message: span.error.message });
    otel.end();
    this.#open.delete(span.spanId);
  }

  async shutdown(): Promise<void> {
    for (const span of this.#open.values()) span.end();
    this.#open.clear();
  }

  async forceFlush(): Promise<void> {}
}
