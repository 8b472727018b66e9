/**
 * Agency calls that run in the background (`POST /agencies/:name/runs`): the call keeps running
 * when its client goes away, its events are kept in order with ids stable for the run, and any
 * number of clients follow them (from the start, or after a `Last-Event-ID`) until the last one,
 * `run_completed` or `run_failed`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { GetResponseOptions } from '../../agency/agency.js';
import type { AgencyStreamEvent } from '../../agency/events.js';
import type { AgencyInput } from '../../agency/input.js';
import type { AgencyResponse } from '../../agency/result.js';
import { errorInfo, type ErrorInfo } from '../../errors.js';
import type { CallExecutor } from '../executor.js';
import { publicError } from '../publicError.js';
import { untilAborted } from '../sse.js';

/** Where a background call is. */
export type CallRunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** The last event of a background call that did not complete. */
export interface CallRunFailedEvent {
  type: 'run_failed';
  status: 'failed' | 'cancelled';
  error: ErrorInfo;
}

/** An event of a background call: the agency's stream events, then `run_failed` if it failed. */
export type CallRunEvent = AgencyStreamEvent | CallRunFailedEvent;

/** What `GET /runs/:id` answers for a background call. */
export interface CallRunSummary {
  runId: string;
  kind: 'call';
  agency: string;
  chatId: string;
  status: CallRunStatus;
  startedAt: string;
  endedAt?: string;
  events: number;
  result?: AgencyResponse;
  error?: ErrorInfo;
}

interface CallRun {
  summary: CallRunSummary;
  events: CallRunEvent[];
  controller: AbortController;
  /** Woken when an event is added or the run ends. */
  waiters: Set<() => void>;
  done: Promise<void>;
}

/** The prefix of background call run ids (ensemble run ids never start with it). */
export const CALL_RUN_PREFIX = 'callrun_';

/** How many finished background calls are kept before the oldest are forgotten. */
const MAX_FINISHED = 1000;

/** The background calls of one server. */
export class CallRuns {
  readonly #calls: CallExecutor;
  readonly #runs = new Map<string, CallRun>();

  constructor(calls: CallExecutor) {
    this.#calls = calls;
  }

  /** Starts `message` on `agency` in the background; `options.signal` is ignored (see `cancel`). */
  start(agency: string, message: AgencyInput, options: GetResponseOptions & { chatId: string }) {
    const runId = `${CALL_RUN_PREFIX}${randomUUID()}`;
    const controller = new AbortController();
    const run: CallRun = {
      summary: {
        runId,
        kind: 'call',
        agency,
        chatId: options.chatId,
        status: 'running',
        startedAt: new Date().toISOString(),
        events: 0,
      },
      events: [],
      controller,
      waiters: new Set(),
      done: Promise.resolve(),
    };
    this.#runs.set(runId, run);
    const stream = this.#calls.getResponseStream(agency, message, {
      ...options,
      signal: controller.signal,
    });
    run.done = this.#drive(run, stream);
    return { summary: { ...run.summary }, done: run.done };
  }

  async #drive(run: CallRun, stream: AsyncIterable<AgencyStreamEvent>): Promise<void> {
    const { summary } = run;
    try {
      // Stops at once on cancel, without waiting for a model call that ignores its signal.
      for await (const event of untilAborted(stream, run.controller.signal)) {
        if (event.type === 'error')
          throw Object.assign(new Error(event.error.message), event.error);
        this.#push(run, event);
        if (event.type === 'run_completed') summary.result = event.result;
      }
      if (run.controller.signal.aborted) throw run.controller.signal.reason;
      if (summary.result === undefined) throw new Error('The call ended without a result.');
      summary.status = 'completed';
    } catch (error) {
      const cancelled = run.controller.signal.aborted;
      summary.status = cancelled ? 'cancelled' : 'failed';
      summary.error = errorInfo(publicError(cancelled ? run.controller.signal.reason : error));
      this.#push(run, { type: 'run_failed', status: summary.status, error: summary.error });
    }
    summary.endedAt = new Date().toISOString();
    this.#wake(run);
    this.#forgetOld();
  }

  #push(run: CallRun, event: CallRunEvent): void {
    run.events.push(event);
    run.summary.events = run.events.length;
    this.#wake(run);
  }

  #wake(run: CallRun): void {
    for (const wake of run.waiters) wake();
    run.waiters.clear();
  }

  #forgetOld(): void {
    const finished = [...this.#runs.values()].filter((run) => run.summary.status !== 'running');
    for (const run of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) {
      this.#runs.delete(run.summary.runId);
    }
  }

  /** The summary of a background call, or `null` when it is not one of this server's. */
  state(runId: string): CallRunSummary | null {
    const run = this.#runs.get(runId);
    return run ? { ...run.summary } : null;
  }

  /**
   * The run's events after id `after` (-1: all), as `[id, event]`, waiting for new ones until the
   * run's last event or `signal`. The id of an event is its position in the run.
   */
  async *follow(
    runId: string,
    after = -1,
    signal?: AbortSignal,
  ): AsyncGenerator<[number, CallRunEvent]> {
    const run = this.#runs.get(runId);
    if (!run) return;
    let next = Math.max(0, after + 1);
    for (;;) {
      while (next < run.events.length) {
        yield [next, run.events[next]!];
        next += 1;
      }
      if (run.summary.status !== 'running' || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        run.waiters.add(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  /** Cancels a running call; false when it is not running (null: unknown). */
  cancel(runId: string, reason: string): boolean | null {
    const run = this.#runs.get(runId);
    if (!run) return null;
    if (run.summary.status !== 'running') return false;
    run.controller.abort(new Error(reason));
    return true;
  }

  /** Cancels every running call and waits for them to end. */
  async close(): Promise<void> {
    for (const run of this.#runs.values()) {
      if (run.summary.status === 'running') run.controller.abort(new Error('The server stopped.'));
    }
    await Promise.all([...this.#runs.values()].map((run) => run.done));
  }
}
