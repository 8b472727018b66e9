/**
 * FallbackModel: a Model over a chain of profiles (the primary, then its
 * `fallback_model_profile`s). The SDK's retry loop repeats the call; on each repeat this model
 * knows which profile to use:
 *
 * 1. a retryable failure (429/5xx/network/timeout) of a profile with retries left: rethrown with a
 *    "retry" decision, so that the SDK waits (backoff with jitter, or Retry-After) and calls again;
 * 2. once that profile's `max_retries` are spent: the next profile is used, with no wait;
 * 3. a non-retryable failure, or the last profile spent: the call fails.
 *
 * The SDK's retry budget for the call must cover the chain: use `profileModelSettings()`. When the
 * SDK will not repeat the call (no retry settings), the remaining profiles are tried in line,
 * once each. State is kept per call, keyed by the request's `modelSettings` object, which the
 * SDK builds afresh for every turn and shares between the attempts of that turn.
 * @module
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import { startAttempt } from './attempts.js';
import type { AttemptReporterOptions } from './attempts.js';
import { markModelError } from './modelError.js';
import { attachRetryDecision, classifyModelError } from './retry.js';
import type { ModelErrorClass } from './retry.js';
import { isRunnerManagedRetry } from '../sdk/runnerManagedRetry.js';

/** One profile of a fallback chain. */
export interface FallbackMember {
  /** The profile name. */
  profile: string;
  provider: string;
  /** The provider's model id. */
  model: string;
  /** The model to call. */
  instance: Model;
  /** Retries of this profile before moving on. */
  maxRetries: number;
  /** Model settings this profile overrides (temperature, max tokens) when it is a fallback. */
  settings?: ModelRequest['modelSettings'];
}

/** Options of {@link FallbackModel}. */
export type FallbackModelOptions = AttemptReporterOptions;

interface CallState {
  member: number;
  failures: number;
  runnerAttempts: number;
  callAttempts: number;
}

type Outcome = { kind: 'rethrow'; error: unknown } | { kind: 'next' };

/** Total SDK retries a chain needs: every profile's attempts, minus the first one. */
export function chainRetryBudget(members: readonly Pick<FallbackMember, 'maxRetries'>[]): number {
  return members.reduce((sum, member) => sum + member.maxRetries + 1, 0) - 1;
}

/** A Model that retries through the SDK and then falls back along a chain of profiles. */
export class FallbackModel implements Model {
  readonly members: readonly FallbackMember[];
  readonly #options: FallbackModelOptions;
  readonly #calls = new WeakMap<object, CallState>();

  constructor(members: readonly FallbackMember[], options: FallbackModelOptions = {}) {
    if (members.length === 0)
      throw new ColloquyError('CONFIG_INVALID', 'FallbackModel needs at least one model.');
    this.members = members;
    this.#options = options;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const state = this.#state(request);
    for (;;) {
      const member = this.members[state.member]!;
      const handle = this.#start(member, state, request, false);
      try {
        const response = await member.instance.getResponse(this.#requestFor(member, request));
        handle.finish({ outcome: 'success' });
        return response;
      } catch (error) {
        const outcome = this.#onFailure(error, request, state, handle, false);
        if (outcome.kind === 'rethrow') throw outcome.error;
      }
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const state = this.#state(request);
    for (;;) {
      const member = this.members[state.member]!;
      const handle = this.#start(member, state, request, true);
      let emitted = false;
      try {
        for await (const event of member.instance.getStreamedResponse(
          this.#requestFor(member, request),
        )) {
          emitted = true;
          yield event;
        }
        handle.finish({ outcome: 'success' });
        return;
      } catch (error) {
        const outcome = this.#onFailure(error, request, state, handle, emitted);
        if (outcome.kind === 'rethrow') throw outcome.error;
      }
    }
  }

  #state(request: ModelRequest): CallState {
    const key = request.modelSettings as object;
    const isRepeat = isRunnerManagedRetry(request);
    let state = isRepeat ? this.#calls.get(key) : undefined;
    if (!state) {
      state = { member: 0, failures: 0, runnerAttempts: 0, callAttempts: 0 };
      this.#calls.set(key, state);
    }
    state.runnerAttempts += 1;
    return state;
  }

  #start(member: FallbackMember, state: CallState, request: ModelRequest, stream: boolean) {
    state.callAttempts += 1;
    const start = {
      profile: member.profile,
      provider: member.provider,
      model: member.model,
      attempt: state.failures + 1,
      callAttempt: state.callAttempts,
      stream,
    };
    return startAttempt(start, this.#options, request.tracing !== false);
  }

  #requestFor(member: FallbackMember, request: ModelRequest): ModelRequest {
    if (member === this.members[0] || !member.settings) return request;
    return { ...request, modelSettings: { ...request.modelSettings, ...member.settings } };
  }

  /** Decides what follows a failed attempt, and reports the attempt. */
  #onFailure(
    error: unknown,
    request: ModelRequest,
    state: CallState,
    handle: ReturnType<typeof startAttempt>,
    emitted: boolean,
  ): Outcome {
    const found: ModelErrorClass = classifyModelError(error, request.signal);
    // A provider may echo the API key in its error body: redact before anyone reads the error.
    if (found.kind !== 'abort') markModelError(error, this.#options.secrets ?? []);
    const base = {
      outcome: 'error' as const,
      error: messageOf(error),
      errorKind: found.kind,
      status: found.status,
    };
    const member = this.members[state.member]!;
    const runnerMax = request.modelSettings.retry?.maxRetries ?? 0;
    const runnerWillRepeat = state.runnerAttempts <= runnerMax && !emitted;
    if (!found.retryable || emitted) {
      handle.finish({ ...base, next: 'fail' });
      return { kind: 'rethrow', error: attachRetryDecision(error, { retry: false }) };
    }
    state.failures += 1;
    const spent = state.failures > member.maxRetries || !runnerWillRepeat;
    if (!spent) {
      handle.finish({ ...base, next: 'retry' });
      const approveUnsafeReplay = found.kind === 'timeout';
      return {
        kind: 'rethrow',
        error: attachRetryDecision(error, { retry: true, approveUnsafeReplay, reason: found.kind }),
      };
    }
    const next = this.members[state.member + 1];
    if (!next) {
      handle.finish({ ...base, next: 'fail' });
      return {
        kind: 'rethrow',
        error: attachRetryDecision(this.#exhausted(error, state), { retry: false }),
      };
    }
    handle.finish({ ...base, next: 'fallback', fallbackTo: next.profile });
    state.member += 1;
    state.failures = 0;
    if (runnerWillRepeat) {
      const decision = {
        retry: true,
        delayMs: 0,
        approveUnsafeReplay: true,
        reason: `fallback to ${next.profile}`,
      };
      return { kind: 'rethrow', error: attachRetryDecision(error, decision) };
    }
    if (request.signal?.aborted) {
      return { kind: 'rethrow', error: attachRetryDecision(error, { retry: false }) };
    }
    return { kind: 'next' };
  }

  #exhausted(error: unknown, state: CallState): ColloquyError {
    const names = this.members.map((member) => member.profile).join(' -> ');
    const last = this.members[state.member]!;
    const exhausted = new ColloquyError(
      'MODEL_ERROR',
      `Model profile "${last.profile}" (${last.provider} ${last.model}) failed after ${state.callAttempts} attempt(s) ` +
        `over the chain ${names}: ${messageOf(error)}. Check the provider, raise max_retries, or add a fallback_model_profile.`,
      { cause: error },
    );
    return markModelError(exhausted, this.#options.secrets ?? []);
  }
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const refused = refusedAddress(error);
  return refused
    ? `${message} (connection refused by ${refused}: is the server running?)`
    : message;
}

/** `host:port` of an ECONNREFUSED anywhere in the error's cause chain (the SDK clients wrap it). */
export function refusedAddress(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let current: unknown = error; current && !seen.has(current);) {
    seen.add(current);
    const value = current as {
      code?: unknown;
      address?: unknown;
      port?: unknown;
      cause?: unknown;
      errors?: unknown[];
    };
    if (value.code === 'ECONNREFUSED' && typeof value.address === 'string')
      return `${value.address.includes(':') ? `[${value.address}]` : value.address}:${String(value.port)}`;
    const nested = Array.isArray(value.errors)
      ? value.errors.find((e) => refusedAddress(e))
      : undefined;
    if (nested) return refusedAddress(nested);
    current = value.cause;
  }
  return undefined;
}
