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
 * The state lives on globalThis (as the SDK's trace provider does), so that every copy of
 * Colloquy in a process (the CLI's and the one a user module loaded) shares one recorder.
 */
const STATE = Symbol.for('colloquy.tracing.state');
const holder = globalThis as { [STATE]?: TracingState };

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
  const resolved = resolveTracing(options.env ?? process.env, options);
  const state = holder[STATE];
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
  holder[STATE] = { recorder, hub, resolved, ...(otlp ? { otlp } : {}) };
  hub.install();
  return recorder;
}

/**
 * The recorder, setting tracing up with the defaults on first use; registers Colloquy's
 * processor again if another processor list replaced it.
 */
export function getTraceRecorder(): TraceRecorder {
  const state = holder[STATE];
  if (!state) return setupTracing();
  state.hub.ensureInstalled();
  return state.recorder;
}

/** The settings tracing was last set up with (resolved from the environment when it was not). */
export function currentTracing(): ResolvedTracing {
  return holder[STATE]?.resolved ?? resolveTracing();
}

/**
 * Makes Colloquy's processor the SDK's only one again, dropping processors that other code added
 * since (a second copy of the SDK, loaded by a reloaded module, adds its console exporter). Pass
 * your own processors to {@link setupTracing} so that they are kept.
 */
export function restoreTraceProcessors(): void {
  holder[STATE]?.hub.install();
}

/** Waits until finished traces are saved and exported (the CLI calls it before exiting). */
export async function flushTracing(): Promise<void> {
  const state = holder[STATE];
  if (!state) return;
  await getGlobalTraceProvider().forceFlush();
  await state.hub.forceFlush();
  const otlp = await state.otlp;
  await otlp?.forceFlush();
}

/** Flushes and stops exporters (tests and servers call it on shutdown). */
export async function shutdownTracing(): Promise<void> {
  const state = holder[STATE];
  if (!state) return;
  await flushTracing();
  const otlp = await state.otlp;
  await otlp?.close();
  holder[STATE] = undefined;
}
