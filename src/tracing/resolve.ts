/**
 * Every tracing choice made in one place. {@link resolveTracing} reads the environment and the
 * options once and says: whether traces are saved and exported, whether message and tool text is
 * kept (for the recorder, OTLP, every SDK processor and the Runner's `traceIncludeSensitiveData`),
 * where OTLP goes, and whether OpenAI's trace export is on. `setupTracing` applies the result;
 * agencies build their Runner from {@link runnerTracingConfig}.
 * @module
 */
import type { TracingProcessor } from '@openai/agents-core';
import { isOffValue, readEnv } from '../env.js';
import type { TraceStore } from '../stores/traceStore.js';
import { otlpRequested, otlpTracesUrl } from './otlp.js';

/** Options of `setupTracing` and {@link resolveTracing}. Every field is optional. */
export interface TracingOptions {
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
  /** More SDK processors, fed next to the recorder (content-free spans when content is off). */
  processors?: TracingProcessor[];
  /** Where the variables are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** The tracing settings {@link resolveTracing} decides. */
export interface ResolvedTracing {
  /** Traces are saved and exported. */
  enabled: boolean;
  /** Message and tool text is kept by default (a call may still turn it off). */
  content: boolean;
  /** Where traces not bound to a store go. */
  store?: TraceStore;
  /** OTLP export, when on: its URL (undefined: the exporter's own default) and service name. */
  otlp?: { url?: string; serviceName?: string };
  /** Export to OpenAI's traces dashboard. */
  openai: boolean;
  /** Exact secret values scrubbed from every span (API keys from the environment). */
  secrets: string[];
  /** The user's SDK processors. */
  processors: TracingProcessor[];
}

/** Whether an environment turns tracing off (`COLLOQUY_TRACING=off|false|0|no`). */
export function tracingOffByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return isOffValue(readEnv('COLLOQUY_TRACING', env));
}

/** Whether an environment turns span text off (`COLLOQUY_TRACE_CONTENT=off|false|0|no`). */
export function traceContentOffByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return isOffValue(readEnv('COLLOQUY_TRACE_CONTENT', env));
}

/**
 * The tracing settings of `env` and `options` (options win over the environment).
 *
 * @example
 * ```ts
 * resolveTracing({ COLLOQUY_TRACE_CONTENT: 'off' }).content; // false
 * resolveTracing(process.env, { otlp: false }).otlp;          // undefined
 * ```
 */
export function resolveTracing(
  env: NodeJS.ProcessEnv = process.env,
  options: Omit<TracingOptions, 'env'> = {},
): ResolvedTracing {
  const enabled = options.enabled ?? !tracingOffByEnv(env);
  const url = otlpTracesUrl(env);
  const serviceName = env.OTEL_SERVICE_NAME;
  return {
    enabled,
    content: options.content ?? !traceContentOffByEnv(env),
    ...(options.store ? { store: options.store } : {}),
    ...(enabled && (options.otlp ?? otlpRequested(env))
      ? { otlp: { ...(url ? { url } : {}), ...(serviceName ? { serviceName } : {}) } }
      : {}),
    openai: enabled && (options.openai ?? Boolean(env.OPENAI_API_KEY)),
    secrets: [env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, readEnv('COLLOQUY_API_KEY', env)].filter(
      (value): value is string => typeof value === 'string' && value.length >= 8,
    ),
    processors: [...(options.processors ?? [])],
  };
}

/** The tracing fields of an SDK `Runner` config. */
export interface RunnerTracingConfig {
  tracingDisabled: boolean;
  traceIncludeSensitiveData: boolean;
}

/**
 * The Runner config of a traced (or untraced) agency: `traceIncludeSensitiveData` follows the
 * agency's `traceContent`, else the resolved content setting, so that with content off the SDK
 * does not even put text on its spans.
 */
export function runnerTracingConfig(
  options: { tracing?: boolean; content?: boolean },
  resolved: Pick<ResolvedTracing, 'content'> = resolveTracing(),
): RunnerTracingConfig {
  return {
    tracingDisabled: options.tracing === false,
    traceIncludeSensitiveData: options.content ?? resolved.content,
  };
}
