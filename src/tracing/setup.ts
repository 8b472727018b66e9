/**
 * Tracing on by default. {@link setupTracing} applies {@link resolveTracing}'s settings: it
 * registers the {@link TraceRecorder} with the SDK (through one {@link TracingHub}, so every
 * agency call and ensemble run is recorded and saved next to the threads), turns on OTLP export
 * when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, and the
 * OpenAI traces exporter when `OPENAI_API_KEY` is set. `COLLOQUY_TRACING=off` keeps spans in the
 * process only (for logs and progress): nothing is saved or exported. `COLLOQUY_TRACE_CONTENT=off`
 * keeps message and tool text out of the recorder, OTLP and every SDK processor.
 * @module
 */
import { getGlobalTraceProvider, type TracingProcessor } from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';
import { defaultRuntime, defineRuntimeSlot } from '../runtime.js';
import { TracingHub } from './hub.js';
import { createLogListener } from './logListener.js';
import { OpenAIExportProcessor } from './openaiExport.js';
import { createOtlpListener, type OtlpListener } from './otlp.js';
import { TraceRecorder } from './recorder.js';
import { resolveTracing, type ResolvedTracing, type TracingOptions } from './resolve.js';

export { tracingOffByEnv } from './resolve.js';

/**
 * Options of {@link setupTracing}.
 * @deprecated Use {@link TracingOptions} (the same fields).
 */
export type SetupTracingOptions = TracingOptions;

interface TracingState {
  recorder: TraceRecorder;
  hub: TracingHub;
  resolved: ResolvedTracing;
  otlp?: Promise<OtlpListener | undefined>;
}

/**
 * The state lives on the default runtime (shared by every copy of Colloquy in a process), as the
 * SDK's trace provider is process-wide: an agency with a runtime of its own records into it too.
 * Its value is undefined until tracing is set up, and again after a shutdown.
 */
const TRACING_SLOT = defineRuntimeSlot<TracingState | undefined>('tracing', () => undefined);

function stateOf(): TracingState | undefined {
  return defaultRuntime().peek(TRACING_SLOT);
}

function setState(state: TracingState | undefined): void {
  if (state) defaultRuntime().set(TRACING_SLOT, state);
  else defaultRuntime().delete(TRACING_SLOT);
}

function newRecorder(): TraceRecorder {
  const recorder = new TraceRecorder();
  recorder.subscribe(createLogListener());
  return recorder;
}

/** Starts the OTLP listener; traces that end while its packages load wait for it. */
function startOtlp(
  recorder: TraceRecorder,
  options: NonNullable<ResolvedTracing['otlp']>,
): Promise<OtlpListener | undefined> {
  const listener = createOtlpListener(options).catch((error: unknown) => {
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
export function setupTracing(options: TracingOptions = {}): TraceRecorder {
  const resolved = resolveTracing(options.env ?? defaultRuntime().env, options);
  const state = stateOf();
  const recorder = state?.recorder ?? newRecorder();
  recorder.persist = resolved.enabled;
  recorder.defaultStore = resolved.store;
  recorder.content = resolved.content;
  recorder.secrets = resolved.secrets;
  const otlp = resolved.otlp ? (state?.otlp ?? startOtlp(recorder, resolved.otlp)) : undefined;
  if (state?.otlp && !otlp) void state.otlp.then((listener) => listener?.close());
  const processors: TracingProcessor[] = [...resolved.processors];
  if (resolved.openai) processors.push(new OpenAIExportProcessor());
  const hub = state?.hub ?? new TracingHub(recorder);
  hub.setProcessors(recorder, processors);
  setState({ recorder, hub, resolved, ...(otlp ? { otlp } : {}) });
  hub.install();
  return recorder;
}

/**
 * The recorder, setting tracing up with the defaults on first use; registers Colloquy's
 * processor again if another processor list replaced it.
 */
export function getTraceRecorder(): TraceRecorder {
  const state = stateOf();
  if (!state) return setupTracing();
  state.hub.ensureInstalled();
  return state.recorder;
}

/** The settings tracing was last set up with (resolved from the environment when it was not). */
export function currentTracing(): ResolvedTracing {
  return stateOf()?.resolved ?? resolveTracing(defaultRuntime().env);
}

/**
 * Makes Colloquy's processor the SDK's only one again, dropping processors that other code added
 * since (a second copy of the SDK, loaded by a reloaded module, adds its console exporter). Pass
 * your own processors to {@link setupTracing} so that they are kept.
 */
export function restoreTraceProcessors(): void {
  stateOf()?.hub.install();
}

/** Waits until finished traces are saved and exported (the CLI calls it before exiting). */
export async function flushTracing(): Promise<void> {
  const state = stateOf();
  if (!state) return;
  await getGlobalTraceProvider().forceFlush();
  await state.hub.forceFlush();
  const otlp = await state.otlp;
  await otlp?.forceFlush();
}

/** Flushes and stops exporters (tests and servers call it on shutdown). */
export async function shutdownTracing(): Promise<void> {
  const state = stateOf();
  if (!state) return;
  await flushTracing();
  const otlp = await state.otlp;
  await otlp?.close();
  setState(undefined);
}
