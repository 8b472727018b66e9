/**
 * The trace of a script-only ensemble run without the SDK: the same `ensemble_run` →
 * `ensemble_step` → `ensemble_agent` spans as `tracing.ts`, handed straight to a
 * {@link TraceRecorder} (which saves the trace and logs it) instead of through the SDK's trace
 * provider. A run with LLM agents needs the SDK's spans (its model calls nest under them), and
 * OTLP and OpenAI export read SDK spans, so {@link canTraceLocally} says when this tracer may
 * be used; `colloquy invoke` uses it then, which keeps a script-only invoke from loading the SDK.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Span as SdkSpan, SpanData, Trace } from '@openai/agents-core';
import { traceStoreFor } from '../stores/traceStores.js';
import { createLogListener } from '../tracing/logListener.js';
import { TraceRecorder } from '../tracing/recorder.js';
import type { ResolvedTracing } from '../tracing/resolve.js';
import type { Ensemble } from './schema.js';
import {
  eventTracer,
  type EnsembleTracer,
  type EnsembleTracerOptions,
  type TracerSpan,
  type TracerTrace,
} from './traceEvents.js';

const hex = (length: number) => randomUUID().replace(/-/g, '').slice(0, length);
const now = () => new Date().toISOString();

/**
 * Whether a run of `ensemble` can be traced without the SDK: every agent is a script (no model
 * calls to nest, no child ensembles) and no exporter that reads SDK spans is on.
 */
export function canTraceLocally(ensemble: Ensemble, tracing: ResolvedTracing): boolean {
  return (
    !tracing.otlp &&
    !tracing.openai &&
    tracing.processors.length === 0 &&
    ensemble.agents.every((agent) => agent.kind === 'script')
  );
}

class LocalTrace implements TracerTrace {
  readonly traceId = `trace_${hex(32)}`;
  constructor(
    readonly recorder: TraceRecorder,
    readonly name: string,
    readonly metadata: Record<string, string>,
  ) {}
  start(): void {
    void this.recorder.onTraceStart(this as unknown as Trace);
  }
  end(): Promise<void> {
    return this.recorder.onTraceEnd(this as unknown as Trace);
  }
}

class LocalSpan implements TracerSpan {
  readonly spanId = `span_${hex(24)}`;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly spanData: { type: 'custom'; name: string; data: Record<string, unknown> };
  startedAt: string | null = null;
  endedAt: string | null = null;
  error: { message: string } | null = null;
  constructor(
    readonly recorder: TraceRecorder,
    name: string,
    data: Record<string, unknown>,
    parent: LocalSpan | LocalTrace,
  ) {
    this.traceId = parent.traceId;
    this.parentId = parent instanceof LocalSpan ? parent.spanId : null;
    this.spanData = { type: 'custom', name, data };
  }
  start(): void {
    this.startedAt = now();
    void this.recorder.onSpanStart(this as unknown as SdkSpan<SpanData>);
  }
  end(): void {
    this.endedAt = now();
    void this.recorder.onSpanEnd(this as unknown as SdkSpan<SpanData>);
  }
  setError(error: { message: string }): void {
    this.error = error;
  }
}

/**
 * Creates the SDK-free tracer of one script-only run (see {@link canTraceLocally}); the trace
 * is saved in the store's trace store and logged, as with `createEnsembleTracer`.
 *
 * @example
 * ```ts
 * const tracing = resolveTracing();
 * const tracer = canTraceLocally(ensemble, tracing)
 *   ? await createLocalEnsembleTracer(tracing, { store })
 *   : await createEnsembleTracer({ store });
 * ```
 */
export async function createLocalEnsembleTracer(
  tracing: ResolvedTracing,
  options: EnsembleTracerOptions = {},
): Promise<EnsembleTracer> {
  const enabled = (options.enabled ?? true) && tracing.enabled;
  const recorder = new TraceRecorder();
  recorder.content = tracing.content;
  recorder.secrets = tracing.secrets;
  recorder.defaultStore = tracing.store;
  recorder.subscribe(createLogListener());
  const traces = options.store && enabled ? await traceStoreFor(options.store) : undefined;
  const tracer = eventTracer<LocalSpan, LocalTrace>(
    {
      createTrace: ({ name, metadata }) => new LocalTrace(recorder, name, metadata),
      createSpan: (name, data, parent) => new LocalSpan(recorder, name, data, parent),
      bind: (traceId, binding) => recorder.bind(traceId, binding),
    },
    traces,
    enabled,
  );
  return {
    onEvent: tracer.onEvent,
    async finish(error) {
      await tracer.finish(error);
      await recorder.forceFlush();
    },
  };
}
