/**
 * The execution seam of the server: where agency calls and ensemble runs actually run. The routes
 * ask an {@link Executor}; the default one ({@link inProcessExecutor}) runs everything in this
 * process, as the server always did. A queued executor (`colloquy/queue`) hands the same work to
 * worker processes instead, with the HTTP API unchanged.
 * @module
 */
import type { GetResponseOptions, ResumeOptions } from '../agency/agency.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import type { AgencyInput } from '../agency/input.js';
import type { AgencyResponse } from '../agency/result.js';
import type { RunCancellation, RunEvent, RunSummary, StartRunOptions } from './ensembleRuns.js';
import { parsePendingCall } from '../agency/approvals.js';
import { CallTracker } from './callTracker.js';
import { notFound } from './errors.js';
import type { ServerRegistry } from './registry.js';
import type { CallRunLog } from './runs/runLog.js';

/**
 * A call's options through an executor: the agency's, and optionally the controller of
 * `options.signal` when the caller made it for this call alone (a route's `requestController`).
 * An in-process executor then runs the call on that signal and aborts that controller to cancel
 * it, making no controller of its own; others may ignore it (`signal` says all they need).
 */
export type ExecutorCallOptions = GetResponseOptions & {
  controller?: AbortController | undefined;
};

/** Runs agency calls, by the name the agency is served under. */
export interface CallExecutor {
  /** Like `Agency.getResponse`; `options.signal` cancels the call wherever it runs. */
  getResponse(
    agency: string,
    message: AgencyInput,
    options: ExecutorCallOptions,
  ): Promise<AgencyResponse>;
  /** Like `Agency.getResponseStream`; leaving the loop early (or the signal) cancels the call. */
  getResponseStream(
    agency: string,
    message: AgencyInput,
    options: ExecutorCallOptions,
  ): AsyncIterable<AgencyStreamEvent>;
  /** Like `Agency.resume`: continues a call stopped for approvals (wherever it ran before). */
  resume(agency: string, state: string, options: ResumeOptions): Promise<AgencyResponse>;
  /** Like `Agency.resumeStream` (optional: routes fall back to {@link CallExecutor.resume}). */
  resumeStream?(
    agency: string,
    state: string,
    options: ResumeOptions,
  ): AsyncIterable<AgencyStreamEvent>;
  /**
   * Cancels every call of `chatId` running or waiting (on any worker, for a queued executor);
   * resolves with how many were cancelled.
   */
  cancel(agency: string, chatId: string, reason?: string): Promise<number>;
}

/** Starts, resumes and follows ensemble runs (what `EnsembleRuns` does in one process). */
export interface RunExecutor {
  start(name: string, options?: StartRunOptions): Promise<RunSummary>;
  resume(runId: string, options?: StartRunOptions): Promise<RunSummary>;
  state(runId: string): Promise<RunSummary | null>;
  follow(runId: string, after?: number, signal?: AbortSignal): AsyncIterable<[number, RunEvent]>;
  /** Stops a running run wherever it runs (null: unknown run); see `EnsembleRuns.cancel`. */
  cancel(runId: string, reason?: string): Promise<RunCancellation | null>;
  /** Lets running work finish within `graceMs`, then stops following it. */
  close(graceMs?: number): Promise<void>;
}

/** Where the server's work runs. */
export interface Executor {
  readonly calls: CallExecutor;
  readonly runs: RunExecutor;
  /**
   * Where background calls are kept (default: the server's memory). A queued executor keeps them
   * in Redis, so that every server of a cluster answers for the runs any of them started.
   */
  readonly callRunLog?: CallRunLog;
  /** Releases what the executor opened (queues, connections); called on server shutdown. */
  close(graceMs?: number): Promise<void>;
}

function agencyOf(registry: ServerRegistry, name: string) {
  const agency = registry.agencies.get(name);
  if (!agency) {
    throw notFound(
      'AGENCY_NOT_FOUND',
      `Agency "${name}"`,
      [...registry.agencies.keys()],
      'Check the name (GET /agencies).',
    );
  }
  return agency;
}

/** The agency's options of a call: `options` without the executor's controller, on `signal`. */
function agencyOptions(options: ExecutorCallOptions, signal: AbortSignal): GetResponseOptions {
  const { controller: _controller, ...rest } = options;
  rest.signal = signal;
  return rest;
}

/**
 * The executor that runs every call and run in this process, with the registry's agencies and
 * its `EnsembleRuns`.
 *
 * @example
 * ```ts
 * const app = createApp({ registry, executor: inProcessExecutor(registry) }); // the default
 * ```
 */
export function inProcessExecutor(registry: ServerRegistry): Executor {
  const running = new CallTracker();
  return {
    calls: {
      getResponse(agency, message, options) {
        const found = agencyOf(registry, agency);
        return running.track(agency, options, (signal) =>
          found.getResponse(message, agencyOptions(options, signal)),
        );
      },
      getResponseStream(agency, message, options) {
        const found = agencyOf(registry, agency);
        return running.trackStream(agency, options, (signal) =>
          found.getResponseStream(message, agencyOptions(options, signal)),
        );
      },
      resume(agency, state, options) {
        const found = agencyOf(registry, agency);
        const chatId = parsePendingCall(state).chatId;
        return running.track(agency, { ...options, chatId }, (signal) =>
          found.resume(state, { ...options, signal }),
        );
      },
      resumeStream(agency, state, options) {
        const found = agencyOf(registry, agency);
        const chatId = parsePendingCall(state).chatId;
        return running.trackStream(agency, { ...options, chatId }, (signal) =>
          found.resumeStream(state, { ...options, signal }),
        );
      },
      async cancel(agency, chatId, reason) {
        agencyOf(registry, agency);
        return running.cancel(agency, chatId, reason);
      },
    },
    runs: registry.runs,
    close: (graceMs) => registry.runs.close(graceMs),
  };
}
