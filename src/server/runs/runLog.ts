/**
 * Where background calls are kept: their summaries and their events in order, each event's id its
 * position in the run. {@link MemoryCallRunLog} keeps them in this process (one server); a queued
 * server uses the Redis log of `colloquy/queue`, so that every server of a cluster answers
 * `GET /runs/:id` and `/runs/:id/events` for runs any of them started.
 * @module
 */
import type { AgencyStreamEvent } from '../../agency/events.js';
import type { AgencyResponse } from '../../agency/result.js';
import type { ErrorInfo } from '../../errors.js';

/** Where a background call is. */
export type CallRunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** The first event of every background call: which run this is (a stream's client rejoins it). */
export interface CallRunStartedEvent {
  type: 'run_started';
  runId: string;
  agency: string;
  chatId: string;
}

/** The last event of a background call that did not complete. */
export interface CallRunFailedEvent {
  type: 'run_failed';
  status: 'failed' | 'cancelled';
  error: ErrorInfo;
}

/**
 * An event of a background call: `run_started`, the agency's stream events, then `run_completed`
 * (an agency event) or `run_failed`.
 */
export type CallRunEvent = CallRunStartedEvent | AgencyStreamEvent | CallRunFailedEvent;

/** What `GET /runs/:id` answers for a background call. */
export interface CallRunSummary {
  runId: string;
  kind: 'call';
  agency: string;
  chatId: string;
  status: CallRunStatus;
  startedAt: string;
  endedAt?: string;
  /** How many events the run has so far. */
  events: number;
  result?: AgencyResponse;
  error?: ErrorInfo;
}

/** Whether an event is the last of its run. */
export function isLastRunEvent(event: { type: string }): boolean {
  return event.type === 'run_completed' || event.type === 'run_failed';
}

/** The store of background calls (see the module comment). */
export interface CallRunLog {
  /** Records a new run (its `events` count is ignored). */
  create(summary: CallRunSummary): Promise<void>;
  /** Appends an event; resolves with its id (0 for the first). */
  append(runId: string, event: CallRunEvent): Promise<number>;
  /** Replaces the run's summary (status, result, error, end time). */
  update(summary: CallRunSummary): Promise<void>;
  /** The run's summary with its event count, or `null` for a run this log does not hold. */
  summary(runId: string): Promise<CallRunSummary | null>;
  /** The run's events from id `from` on, in order. */
  events(runId: string, from: number): Promise<CallRunEvent[]>;
  /**
   * True when {@link CallRunLog.watch} is called on every change without fail (a log in this
   * process): followers then wait for it alone, with no polling timer. A shared log whose
   * notifications can be lost leaves it unset, and followers also re-read it every second.
   */
  readonly wakesReliably?: boolean;
  /** Calls `wake` whenever the run changes; resolves with the function that stops it. */
  watch(runId: string, wake: () => void): Promise<() => void>;
  /** Asks whichever server drives the run to cancel it. */
  requestCancel(runId: string, reason: string): Promise<void>;
  /** Calls `listener` for every cancellation asked of any run; resolves with the stop function. */
  onCancel(listener: (runId: string, reason: string) => void): Promise<() => void>;
}

interface MemoryRun {
  summary: CallRunSummary;
  events: CallRunEvent[];
  watchers: Set<() => void>;
}

/** How many finished runs a {@link MemoryCallRunLog} keeps before the oldest are forgotten. */
const MAX_FINISHED = 1000;

/** The runs of one server, in its memory. */
export class MemoryCallRunLog implements CallRunLog {
  readonly wakesReliably = true;
  readonly #runs = new Map<string, MemoryRun>();
  /** Ids of finished runs, oldest first (forgetting the oldest costs no scan of all runs). */
  readonly #finished = new Set<string>();
  readonly #cancelListeners = new Set<(runId: string, reason: string) => void>();

  async create(summary: CallRunSummary): Promise<void> {
    this.createNow(summary);
  }

  /** {@link MemoryCallRunLog.create} without a promise. */
  createNow(summary: CallRunSummary): void {
    this.#runs.set(summary.runId, { summary: { ...summary }, events: [], watchers: new Set() });
  }

  async append(runId: string, event: CallRunEvent): Promise<number> {
    return this.appendNow(runId, event);
  }

  /** {@link MemoryCallRunLog.append} without a promise: the event is recorded on return. */
  appendNow(runId: string, event: CallRunEvent): number {
    const run = this.#run(runId);
    run.events.push(event);
    this.#wake(run);
    return run.events.length - 1;
  }

  async update(summary: CallRunSummary): Promise<void> {
    this.updateNow(summary);
  }

  /** {@link MemoryCallRunLog.update} without a promise. */
  updateNow(summary: CallRunSummary): void {
    const run = this.#run(summary.runId);
    run.summary = { ...summary };
    this.#wake(run);
    if (summary.status !== 'running') this.#forgetOld(summary.runId);
  }

  async summary(runId: string): Promise<CallRunSummary | null> {
    const run = this.#runs.get(runId);
    return run ? { ...run.summary, events: run.events.length } : null;
  }

  async events(runId: string, from: number): Promise<CallRunEvent[]> {
    return this.eventsNow(runId, from);
  }

  /** {@link MemoryCallRunLog.events} without a promise. */
  eventsNow(runId: string, from: number): CallRunEvent[] {
    return this.#runs.get(runId)?.events.slice(Math.max(0, from)) ?? [];
  }

  /** The run's status without a promise, or `null` for a run this log does not hold. */
  statusNow(runId: string): CallRunStatus | null {
    return this.#runs.get(runId)?.summary.status ?? null;
  }

  async watch(runId: string, wake: () => void): Promise<() => void> {
    return this.watchNow(runId, wake);
  }

  /** {@link MemoryCallRunLog.watch} without a promise. */
  watchNow(runId: string, wake: () => void): () => void {
    const run = this.#runs.get(runId);
    run?.watchers.add(wake);
    return () => void run?.watchers.delete(wake);
  }

  async requestCancel(runId: string, reason: string): Promise<void> {
    for (const listener of this.#cancelListeners) listener(runId, reason);
  }

  async onCancel(listener: (runId: string, reason: string) => void): Promise<() => void> {
    this.#cancelListeners.add(listener);
    return () => void this.#cancelListeners.delete(listener);
  }

  #run(runId: string): MemoryRun {
    const run = this.#runs.get(runId);
    if (!run) throw new Error(`Background call "${runId}" is not in this log.`);
    return run;
  }

  #wake(run: MemoryRun): void {
    for (const wake of run.watchers) wake();
  }

  #forgetOld(runId: string): void {
    this.#finished.delete(runId); // a run finished again counts from its last finish
    this.#finished.add(runId);
    for (const oldest of this.#finished) {
      if (this.#finished.size <= MAX_FINISHED) break;
      this.#finished.delete(oldest);
      this.#runs.delete(oldest);
    }
  }
}
