/**
 * The old entry point of SDK-only tracing, kept for code written against it.
 * @module
 */
import { setTracingDisabled, type TracingProcessor } from '@openai/agents-core';
import { setupTracing } from './setup.js';

/**
 * Options of {@link configureTracing}.
 * @deprecated Use `TracingOptions` with `setupTracing`.
 */
export interface ConfigureTracingOptions {
  /** Processors that receive every trace and span (default none). */
  processors?: TracingProcessor[];
  /** Turn SDK tracing off altogether: no spans reach any processor. */
  disabled?: boolean;
}

/**
 * Sets the SDK's trace processors.
 *
 * @deprecated Use `setupTracing({ processors })`, which also keeps Colloquy's recorder and the
 * content setting: `configureTracing({ processors })` is now `setupTracing({ processors })`, and
 * `configureTracing({ disabled: true })` also turns SDK tracing off. (It no longer turns tracing
 * off when no processor is given: set `COLLOQUY_TRACING=off` or pass `disabled: true`.)
 *
 * @example
 * ```ts
 * setupTracing({ processors: [new OpenTelemetryTracingProcessor()] }); // instead
 * ```
 */
export function configureTracing(options: ConfigureTracingOptions = {}): void {
  const processors = options.processors ?? [];
  setupTracing({ processors, ...(options.disabled ? { enabled: false } : {}) });
  if (options.disabled) setTracingDisabled(true);
}
