/**
 * Tracing on by default. {@link setupTracing} registers the {@link TraceRecorder} with the SDK's
 * trace provider (so every agency call and ensemble run is recorded and saved next to the
 * threads), turns on OTLP export when `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, and the OpenAI traces exporter when
 * `OPENAI_API_KEY` is set. `COLLOQUY_TRACING=off` keeps spans in the process only (for logs and
 * progress): nothing is saved or exported.
 * @module
 */
import {
  getGlobalTraceProvider,
  setTraceProcessors,
  setTracingDisabled,
  type Span as SdkSpan,
  type SpanData,
  type Trace,
  type TracingProcessor,
} from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';
import type { TraceStore } from '../stores/traceStore.js';
import { createOtlpListener, otlpRequested, otlpTracesUrl, type OtlpListener } from './otlp.js';
import { withoutContent } from './contentFilter.js';
import { createLogListener } from './logListener.js';
import { TraceRecorder } from './recorder.js';

/** Options of {@link setupTracing}. Every field is optional. */
export interface SetupTracingOptions {
  /** Save and export traces (default: unless `COLLOQUY_TRACING=off`). */
  enabled?: boolean;
  /** Where traces not bound to an agency's store go (default none). */
  store?: TraceStore;
  /** Keep message and tool text in spans (default true; `COLLOQUY_TRACE_CONTENT=off` turns it off). */
  content?: boolean;
  /** Export over OTLP/HTTP (default: when an `OTEL_EXPORTER_OTLP_*ENDPOINT` is set). */
  otlp?: boolean;
  /** Export to OpenAI's traces dashboard (default: when `OPENAI_API_KEY` is set). */
  openai?: boolean;
  /** More SDK processors to register next to the recorder. */
  processors?: TracingProcessor[];
  /** Where the variables are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

interface TracingState {
  recorder: TraceRecorder;
  otlp?: Promise<OtlpListener | undefined>;
  processors: TracingProcessor[];
}

/**
 * The state lives on globalThis (as the SDK's trace provider does), so that every copy of
 * Colloquy in a process (the CLI's and the one a user module loaded) shares one recorder.
 */
const STATE = Symbol.for('colloquy.tracing.state');
const holder = globalThis as { [STATE]?: TracingState };
function readState(): TracingState | undefined {
  return holder[STATE];
}

function writeState(next: TracingState | undefined): void {
  holder[STATE] = next;
}

function newRecorder(): TraceRecorder {
  const recorder = new TraceRecorder();
  recorder.subscribe(createLogListener());
  return recorder;
}

/** Whether an environment turns tracing off (`COLLOQUY_TRACING=off|false|0`). */
export function tracingOffByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(off|false|0|no)$/i.test(env.COLLOQUY_TRACING ?? '');
}

/**
 * Exports SDK traces with OpenAI's exporter (loaded on first use), skipping traces whose metadata
 * says `colloquy.export: false`.
 */
class OpenAIExportProcessor implements TracingProcessor {
  readonly #items = new Map<string, Array<Trace | SdkSpan<SpanData>>>();
  #exporter:
    Promise<{ export(items: Array<Trace | SdkSpan<SpanData>>): Promise<void> }> | undefined;

  async onTraceStart(trace: Trace): Promise<void> {
    if (trace.metadata?.['colloquy.export'] !== false) this.#items.set(trace.traceId, [trace]);
  }
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    this.#items.get(span.traceId)?.push(span);
  }
  async onTraceEnd(trace: Trace): Promise<void> {
    const items = this.#items.get(trace.traceId);
    this.#items.delete(trace.traceId);
    if (!items) return;
    this.#exporter ??= import('@openai/agents-openai').then(
      ({ OpenAITracingExporter }) => new OpenAITracingExporter(),
    );
    try {
      await (await this.#exporter).export(items);
    } catch (error) {
      getDefaultLogger().warn({ err: error }, 'could not export a trace to OpenAI');
    }
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

/** Starts the OTLP listener; traces that end while its packages load wait for it. */
function startOtlp(
  recorder: TraceRecorder,
  url: string | undefined,
  serviceName: string | undefined,
): Promise<OtlpListener | undefined> {
  const listener = createOtlpListener({
    ...(url ? { url } : {}),
    ...(serviceName ? { serviceName } : {}),
  }).catch((error: unknown) => {
    getDefaultLogger().error({ err: error }, 'could not start the OTLP trace exporter');
    return undefined;
  });
  recorder.subscribe({
    async onTraceEnd(trace, binding) {
      await (await listener)?.onTraceEnd?.(trace, binding);
    },
  });
  return listener;
}

const GUARDED = Symbol.for('colloquy.tracing.guarded');

/**
 * Importing `@openai/agents` (e.g. through the AI-SDK adapter, loaded on demand) calls the SDK's
 * `setDefaultOpenAITracingExporter()`, which replaces every processor. The provider's
 * `setProcessors` is wrapped once so that the recorder always stays registered, and the SDK's
 * default OpenAI batch exporter (and its console exporter) is dropped when export to OpenAI is not wanted (no key, or
 * tracing off), instead of warning "No API key provided" on every trace.
 */
function guardProcessors(recorder: TraceRecorder, openai: boolean): void {
  const provider = getGlobalTraceProvider() as ReturnType<typeof getGlobalTraceProvider> & {
    [GUARDED]?: { recorder: TraceRecorder; openai: boolean };
  };
  const guard = provider[GUARDED];
  if (guard) {
    guard.recorder = recorder;
    guard.openai = openai;
    return;
  }
  const state = { recorder, openai };
  provider[GUARDED] = state;
  const foreignBatch = (processor: TracingProcessor): boolean =>
    !state.openai && processor.constructor?.name === 'BatchTraceProcessor';
  // Every processor but the recorder sees content-free spans of traces whose content is off.
  const filtered = (processor: TracingProcessor): TracingProcessor =>
    processor === state.recorder
      ? processor
      : withoutContent(processor, (traceId) => state.recorder.keepsContent(traceId));
  const original = provider.setProcessors.bind(provider);
  provider.setProcessors = (list: TracingProcessor[]) => {
    const kept = list.filter((processor) => !foreignBatch(processor)).map(filtered);
    original(kept.includes(state.recorder) ? kept : [state.recorder, ...kept]);
  };
  // A second copy of the SDK (a module reloaded under its own loader namespace) registers its
  // console exporter with `addTraceProcessor` when it is imported: keep that out too.
  const register = provider.registerProcessor.bind(provider);
  provider.registerProcessor = (processor: TracingProcessor) => {
    if (!foreignBatch(processor)) register(filtered(processor));
  };
}

/**
 * Registers Colloquy's tracing with the SDK (replacing earlier processors). Agencies call it with
 * no options on first use; call it yourself to choose. Returns the recorder.
 *
 * @example
 * ```ts
 * setupTracing({ content: false });          // no message text in any span
 * getTraceRecorder().subscribe({ onSpanEnd: (span) => console.log(span.kind, span.name) });
 * ```
 */
export function setupTracing(options: SetupTracingOptions = {}): TraceRecorder {
  const env = options.env ?? process.env;
  const enabled = options.enabled ?? !tracingOffByEnv(env);
  const state = readState();
  const recorder = state?.recorder ?? newRecorder();
  recorder.persist = enabled;
  recorder.defaultStore = options.store;
  recorder.content =
    options.content ?? !/^(off|false|0|no)$/i.test(env.COLLOQUY_TRACE_CONTENT ?? '');
  const secrets = [env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, env.COLLOQUY_API_KEY].filter(
    (value): value is string => typeof value === 'string' && value.length >= 8,
  );
  recorder.secrets = secrets;
  const processors: TracingProcessor[] = [recorder, ...(options.processors ?? [])];
  if (enabled && (options.openai ?? Boolean(env.OPENAI_API_KEY)))
    processors.push(new OpenAIExportProcessor());
  const otlp =
    enabled && (options.otlp ?? otlpRequested(env))
      ? (state?.otlp ?? startOtlp(recorder, otlpTracesUrl(env), env.OTEL_SERVICE_NAME))
      : undefined;
  if (state?.otlp && !otlp) void state.otlp.then((listener) => listener?.close());
  writeState({ recorder, processors, ...(otlp ? { otlp } : {}) });
  guardProcessors(recorder, enabled && Boolean(env.OPENAI_API_KEY));
  setTraceProcessors(processors);
  setTracingDisabled(false);
  return recorder;
}

/** The recorder, setting tracing up with the defaults on first use. */
export function getTraceRecorder(): TraceRecorder {
  return readState()?.recorder ?? setupTracing();
}

/** Waits until finished traces are saved and exported (the CLI calls it before exiting). */
export async function flushTracing(): Promise<void> {
  const state = readState();
  if (!state) return;
  await getGlobalTraceProvider().forceFlush();
  await state.recorder.forceFlush();
  const otlp = await state.otlp;
  await otlp?.forceFlush();
}

/** Flushes and stops exporters (tests and servers call it on shutdown). */
export async function shutdownTracing(): Promise<void> {
  const state = readState();
  if (!state) return;
  await flushTracing();
  const otlp = await state.otlp;
  await otlp?.close();
  writeState(undefined);
}
