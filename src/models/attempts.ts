/**
 * Model attempts made visible. Every attempt of a model call (first try, retry, fallback) is
 *
 * - logged with pino: `info` when it succeeds, `warn` when it fails;
 * - recorded on the run's trace as a custom span named `model_attempt` whose data is the
 *   {@link ModelAttempt} (a child of the current agent/turn span; nothing is created when
 *   tracing is off or there is no trace);
 * - passed to an optional `onAttempt` callback;
 * - passed to the listener of the run the call belongs to (see {@link withAttemptListener}),
 *   which is how an agency turns attempts into `model_attempt` events of the right run.
 * @module
 */
import { createCustomSpan } from '@openai/agents-core';
import type { Logger } from 'pino';
import { getDefaultLogger } from '../logger.js';
import { redactString } from '../redact.js';
import { contextSlot, readSlot, runInSlot } from '../asyncContext.js';

/** One attempt of a model call, as logged, traced and reported. */
export interface ModelAttempt {
  type: 'model_attempt';
  /** The profile this attempt used. */
  profile: string;
  provider: string;
  model: string;
  /** 1-based attempt number within this profile. */
  attempt: number;
  /** 1-based attempt number within the whole call (retries and fallbacks included). */
  callAttempt: number;
  stream: boolean;
  outcome: 'success' | 'error';
  durationMs: number;
  /** The error message (secrets redacted), on failure. */
  error?: string;
  /** `status`, `network`, `timeout`, `abort` or `other`, on failure. */
  errorKind?: string;
  /** The HTTP status, when there was one. */
  status?: number;
  /** What happens next, on failure: `retry` the same profile, `fallback`, or `fail`. */
  next?: 'retry' | 'fallback' | 'fail';
  /** The profile tried next, when `next` is `fallback`. */
  fallbackTo?: string;
}

/** A callback told about every attempt (the agency turns these into run events). */
export type ModelAttemptListener = (attempt: ModelAttempt) => void;

const runListeners = contextSlot<ModelAttemptListener>('model attempt listener');

/**
 * Runs `work` so that every model attempt made inside it (in this async context, however deep)
 * is also reported to `listener`. A model object serves many runs at once; the async context
 * tells them apart, so concurrent runs each get only their own attempts.
 */
export function withAttemptListener<T>(listener: ModelAttemptListener, work: () => T): T {
  return runInSlot(runListeners, listener, work);
}

/** Whether some caller up the async context listens for attempts (see {@link withAttemptListener}). */
export function attemptListenerActive(): boolean {
  return readSlot(runListeners) !== undefined;
}

/** Where attempts are reported. */
export interface AttemptReporterOptions {
  logger?: Logger;
  onAttempt?: ModelAttemptListener;
  /** Exact secrets to scrub from error messages. */
  secrets?: readonly string[];
}

/** An attempt in progress: call `finish` once with the outcome. */
export interface AttemptHandle {
  finish(
    result: Omit<
      ModelAttempt,
      | 'type'
      | 'profile'
      | 'provider'
      | 'model'
      | 'attempt'
      | 'callAttempt'
      | 'stream'
      | 'durationMs'
    >,
  ): ModelAttempt;
}

/** The fields known when an attempt starts. */
export type AttemptStart = Pick<
  ModelAttempt,
  'profile' | 'provider' | 'model' | 'attempt' | 'callAttempt' | 'stream'
>;

/**
 * Starts an attempt: opens its `model_attempt` span (unless `tracing` is false) and returns a
 * handle that ends it, logs it and calls the listener.
 */
export function startAttempt(
  start: AttemptStart,
  options: AttemptReporterOptions,
  tracing = true,
): AttemptHandle {
  const began = Date.now();
  const span = createCustomSpan({
    disabled: !tracing,
    data: { name: 'model_attempt', data: { ...start } },
  });
  span.start();
  return {
    finish(result) {
      const attempt: ModelAttempt = {
        type: 'model_attempt',
        ...start,
        durationMs: Date.now() - began,
        ...result,
        ...(result.error === undefined
          ? {}
          : { error: redactString(result.error, { secrets: options.secrets }) }),
      };
      span.spanData.data = { ...attempt };
      if (attempt.outcome === 'error')
        span.setError({ message: attempt.error ?? 'model call failed', data: { ...attempt } });
      span.end();
      const logger = options.logger ?? getDefaultLogger();
      const { type: _type, ...fields } = attempt;
      if (attempt.outcome === 'success') logger.info(fields, 'model attempt succeeded');
      else logger.warn(fields, `model attempt failed; next: ${attempt.next ?? 'fail'}`);
      options.onAttempt?.(attempt);
      readSlot(runListeners)?.(attempt);
      return attempt;
    },
  };
}
