/**
 * OpenTelemetry export over OTLP/HTTP with the official `@opentelemetry/*` packages. Each finished
 * Colloquy trace becomes one OpenTelemetry trace: a root span for the call, then the spans as
 * recorded, named and attributed after the GenAI semantic conventions (`invoke_agent Writer`,
 * `chat gpt-4.1-mini`, `execute_tool send_message` with `gen_ai.*` attributes). The exporter reads
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (and `_HEADERS`) itself.
 * @module
 */
import type { Attributes, Tracer } from '@opentelemetry/api';
import type { SpanRecord, StoredTrace } from '../stores/traceStore.js';
import type { TraceBinding, TraceListener } from './recorder.js';
import { importOptionalPeer } from '../optionalPeer.js';

/** Whether the environment asks for OTLP trace export. */
export function otlpRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** The OTLP/HTTP traces URL the standard variables name, if any. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** The GenAI operation and span name of a span (semantic conventions). */
export function genAiName(span: SpanRecord): { operation?: string; name: string } {
  switch (span.kind) {
    case 'agent':
    case 'ensemble_agent':
      return {
        operation: 'invoke_agent',
        name: `invoke_agent ${span.attributes.agent ?? span.name}`,
      };
    case 'generation':
      return { operation: 'chat', name: `chat ${span.attributes.model ?? span.name}` };
    case 'function':
    case 'send_message':
      return {
        operation: 'execute_tool',
        name: `execute_tool ${span.attributes.tool ?? span.name}`,
      };
    default:
      return { name: `${span.kind} ${span.name}` };
  }
}

/** OpenTelemetry attributes of a span: `gen_ai.*` where a convention exists, `colloquy.*` else. */
export function genAiAttributes(span: SpanRecord, trace: StoredTrace): Attributes {
  const a = span.attributes;
  const out: Attributes = { 'colloquy.span.kind': span.kind };
  const { operation } = genAiName(span);
  if (operation) out['gen_ai.operation.name'] = operation;
  if (trace.trace.chatId) out['gen_ai.conversation.id'] = trace.trace.chatId;
  if (typeof a.agent === 'string') out['gen_ai.agent.name'] = a.agent;
  if (span.kind === 'generation') {
    if (typeof a.model === 'string') {
      out['gen_ai.request.model'] = a.model;
      out['gen_ai.response.model'] = a.model;
    }
    if (typeof a.provider === 'string') out['gen_ai.provider.name'] = a.provider;
    if (typeof a.inputTokens === 'number') out['gen_ai.usage.input_tokens'] = a.inputTokens;
    if (typeof a.outputTokens === 'number') out['gen_ai.usage.output_tokens'] = a.outputTokens;
  }
  if (typeof a.tool === 'string') out['gen_ai.tool.name'] = a.tool;
  for (const [key, value] of Object.entries(a)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[`colloquy.${key}`] = value;
  }
  return out;
}

/** Options of {@link createOtlpListener}. */
export interface OtlpListenerOptions {
  /** The OTLP/HTTP traces URL (default: from the `OTEL_EXPORTER_OTLP_*` variables). */
  url?: string;
  /** `service.name` (default `$OTEL_SERVICE_NAME`, else `colloquy`). */
  serviceName?: string;
  /**
   * The OpenTelemetry span exporter (default: OTLP/HTTP to `url`); e.g. an `InMemorySpanExporter`
   * in tests, or another protocol's exporter. (Typed by shape, so that the published types need
   * no OpenTelemetry package.)
   */
  exporter?: OtlpSpanExporter;
}

/** The shape of an OpenTelemetry `SpanExporter` (`@opentelemetry/sdk-trace`). */
export interface OtlpSpanExporter {
  export(spans: never[], resultCallback: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** A trace listener that exports finished traces over OTLP/HTTP; `close` flushes and stops. */
export interface OtlpListener extends TraceListener {
  forceFlush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates the OTLP exporter (its packages load here, not at start-up) and a listener that sends
 * every exportable finished trace through it.
 *
 * @example
 * ```ts
 * const otlp = await createOtlpListener({ url: 'http://127.0.0.1:4318/v1/traces' });
 * getTraceRecorder().subscribe(otlp);
 * ```
 */
export async function createOtlpListener(options: OtlpListenerOptions = {}): Promise<OtlpListener> {
  const [
    { TracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    importOptionalPeer('@opentelemetry/sdk-trace', () => import('@opentelemetry/sdk-trace')),
    importOptionalPeer(
      '@opentelemetry/exporter-trace-otlp-http',
      () => import('@opentelemetry/exporter-trace-otlp-http'),
    ),
    importOptionalPeer('@opentelemetry/resources', () => import('@opentelemetry/resources')),
  ]);
  const api = await import('@opentelemetry/api');
  const exporter =
    (options.exporter as InstanceType<typeof OTLPTraceExporter> | undefined) ??
    new OTLPTraceExporter(options.url ? { url: options.url } : {});
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName ?? process.env.OTEL_SERVICE_NAME ?? 'colloquy',
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 200 })],
  });
  const tracer: Tracer = provider.getTracer('colloquy');
  return {
    onTraceEnd(trace: StoredTrace, binding: TraceBinding) {
      if (binding.export === false) return;
      const time = (iso: string | undefined) => (iso ? new Date(iso) : new Date());
      const root = tracer.startSpan(trace.trace.name, {
        startTime: time(trace.trace.startedAt),
        attributes: {
          'colloquy.trace_id': trace.trace.traceId,
          ...(trace.trace.chatId ? { 'gen_ai.conversation.id': trace.trace.chatId } : {}),
          ...(trace.trace.runId ? { 'colloquy.run_id': trace.trace.runId } : {}),
          ...(trace.trace.agency ? { 'colloquy.agency': trace.trace.agency } : {}),
        },
      });
      const open = new Map<string, ReturnType<Tracer['startSpan']>>();
      for (const span of trace.spans) {
        const parent = (span.parentId && open.get(span.parentId)) || root;
        const otel = tracer.startSpan(
          genAiName(span).name,
          { startTime: time(span.startedAt), attributes: genAiAttributes(span, trace) },
          api.trace.setSpan(api.context.active(), parent),
        );
        if (span.error) {
          otel.setStatus({ code: api.SpanStatusCode.ERROR, message: span.error.message });
          otel.setAttribute('error.type', 'error');
        }
        open.set(span.spanId, otel);
      }
      for (const span of [...trace.spans].reverse())
        open.get(span.spanId)!.end(time(span.endedAt ?? trace.trace.endedAt));
      root.end(time(trace.trace.endedAt));
    },
    forceFlush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}
