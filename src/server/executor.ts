/**
 * The execution seam of the server: where agency calls and ensemble runs actually run. The routes
 * ask an {@link Executor}; the default one ({@link inProcessExecutor}) runs everything in this
 * process, as the server always did. A queued executor (`colloquy/queue`) hands the same work to
 * worker processes instead, with the HTTP API unchanged.
 * @module
 */
import type { GetResponseOptions } from '../agency/agency.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import type { AgencyInput } from '../agency/input.js';
import type { AgencyResponse } from '../agency/result.js';
import type { RunEvent, RunSummary, StartRunOptions } from './ensembleRuns.js';
import { notFound } from './errors.js';
import type { ServerRegistry } from './registry.js';

/** Runs agency calls, by the name the agency is served under. */
export interface CallExecutor {
  /** Like `Agency.getResponse`; `options.signal` cancels the call wherever it runs. */
  getResponse(
    agency: string,
    message: AgencyInput,
    options: GetResponseOptions,
  ): Promise<AgencyResponse>;
  /** Like `Agency.getResponseStream`; leaving the loop early (or the signal) cancels the call. */
  getResponseStream(
    agency: string,
    message: AgencyInput,
    options: GetResponseOptions,
  ): AsyncIterable<AgencyStreamEvent>;
}

/** Starts, resumes and follows ensemble runs (what `EnsembleRuns` does in one process). */
export interface RunExecutor {
  start(name: string, options?: StartRunOptions): Promise<RunSummary>;
  resume(runId: string, options?: StartRunOptions): Promise<RunSummary>;
  state(runId: string): Promise<RunSummary | null>;
  follow(runId: string, after?: number, signal?: AbortSignal): AsyncIterable<[number, RunEvent]>;
  /** Lets running work finish within `graceMs`, then stops following it. */
  close(graceMs?: number): Promise<void>;
}

/** Where the server's work runs. */
export interface Executor {
  readonly calls: CallExecutor;
  readonly runs: RunExecutor;
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
  return {
    calls: {
      getResponse: (agency, message, options) =>
        agencyOf(registry, agency).getResponse(message, options),
      getResponseStream: (agency, message, options) =>
        agencyOf(registry, agency).getResponseStream(message, options),
    },
    runs: registry.runs,
    close: (graceMs) => registry.runs.close(graceMs),
  };
}
