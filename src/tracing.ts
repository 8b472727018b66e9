/**
 * `colloquy/tracing`: observability: tracing set-up and the live recorder, `traceCall`, the OTLP
 * listener, the SDK trace processors, trace stores (memory and SQLite here; Redis and Postgres in
 * their subpaths), logging and secret redaction.
 * @module
 */
export {
  currentTracing,
  flushTracing,
  getTraceRecorder,
  restoreTraceProcessors,
  setupTracing,
  shutdownTracing,
  tracingOffByEnv,
} from './tracing/setup.js';
export type { SetupTracingOptions } from './tracing/setup.js';
export { resolveTracing, runnerTracingConfig, traceContentOffByEnv } from './tracing/resolve.js';
export type { ResolvedTracing, RunnerTracingConfig, TracingOptions } from './tracing/resolve.js';
export { TracingHub } from './tracing/hub.js';
export { TraceRecorder } from './tracing/recorder.js';
export type { LiveTrace, TraceBinding, TraceListener } from './tracing/recorder.js';
export { traceCall } from './tracing/traceCall.js';
export type { TraceCallOptions } from './tracing/traceCall.js';
export { createOtlpListener } from './tracing/otlp.js';
export type { OtlpListener, OtlpListenerOptions, OtlpSpanExporter } from './tracing/otlp.js';
export {
  InMemoryTracingProcessor,
  OpenTelemetryTracingProcessor,
} from './tracing/sdkProcessors.js';
export type {
  OpenTelemetryTracingProcessorOptions,
  RecordedSpan,
} from './tracing/sdkProcessors.js';
export { configureTracing } from './tracing/configure.js';
export type { ConfigureTracingOptions } from './tracing/configure.js';
export { MemoryTraceStore, TRACE_SCHEMA_VERSION } from './stores/traceStore.js';
export type { MemoryTraceStoreOptions } from './stores/traceStore.js';
export {
  boundTrace,
  cutText,
  DEFAULT_TRACE_RETENTION,
  TRACE_TEXT_LIMIT,
} from './stores/traceBounds.js';
export type { TraceRetention } from './stores/traceBounds.js';
export { stripSpanData, withoutContent } from './tracing/contentFilter.js';
export type { KeepsContent } from './tracing/contentFilter.js';
export type {
  SpanKind,
  SpanRecord,
  StoredTrace,
  TraceFilter,
  TraceStore,
  TraceSummary,
} from './stores/traceStore.js';
export type { TokenCounts, Usage } from './usage.js';
export { SqliteTraceStore } from './stores/sqliteTraces.js';
export type { SqliteTraceStoreOptions } from './stores/sqliteTraces.js';
export { linkTraceStore, traceStoreFor } from './stores/traceStores.js';
export { createLogger, getDefaultLogger, setDefaultLogger, LOG_LEVELS } from './logger.js';
export type { CreateLoggerOptions, LogLevel } from './logger.js';
export { envSecrets, redactErrorInPlace } from './redact.js';
export type { RedactOptions } from './redact.js';
