/**
 * Agency calls that run in the background: `POST /agencies/:name/runs`, and every streaming route
 * (whose stream follows its run). The call keeps running when its client goes away, its events are
 * kept in order with ids stable for the run (in a {@link CallRunLog}: this server's memory, or
 * Redis on a queued cluster), and any number of clients on any server follow them (from the
 * start, or after a `Last-Event-ID`) until the last one, `run_completed` or `run_failed`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GetResponseOptions } from '../../agency/agency.js';
import type { AgencyStreamEvent, RunCompletedEvent, RunErrorEvent } from '../../agency/events.js';
import { isEventFeed, type EventFeed } from '../../agency/streaming.js';
import type { AgencyInput } from '../../agency/input.js';
import type { AgencyResponse } from '../../agency/result.js';
import { errorInfo } from '../../errors.js';
import { getDefaultLogger } from '../../logger.js';
import type { CallExecutor } from '../executor.js';
import { publicError } from '../publicError.js';
import { untilAborted } from '../sse.js';
import { followMemoryLog, type BatchFollower } from './memoryFollower.js';
import {
  isLastRunEvent,
  MemoryCallRunLog,
  type CallRunEvent,
  type CallRunLog,
  type CallRunSummary,
} from './runLog.js';

export type {
  CallRunEvent,
  CallRunFailedEvent,
  CallRunStartedEvent,
  CallRunStatus,
  CallRunSummary,
} from './runLog.js';

/** Resolves in the next turn of the event loop (after its pending I/O and timers). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The error an `error` event of a call stands for (its name, code and message). */
function errorOf(event: RunErrorEvent): Error {
  return Object.assign(new Error(event.error.message), event.error);
}

/** The prefix of background call run ids (ensemble run ids never start with it). */
export const CALL_RUN_PREFIX = 'callrun_';

/** A call to run in the background (see {@link CallRuns.startWith}). */
export interface CallRunSpec {
  agency: string;
  chatId: string;
  /** Starts the call as a stream of agency events; the signal cancels it. */
  events: (signal: AbortSignal) => AsyncIterable<AgencyStreamEvent>;
  /**
   * Runs when the call completes, before `run_completed` is recorded, on the server that started
   * it, whether or not a client still follows (e.g. remembering client tool calls it stopped on).
   */
  onCompleted?: (result: AgencyResponse) => Promise<void> | void;
}

/** A started background call. */
export interface StartedCallRun {
  summary: CallRunSummary;
  /** Settles when the call has ended and its last event is recorded. */
  done: Promise<void>;
}

/** The background calls of a server (or, with a shared log, of a cluster). */
export class CallRuns {
  readonly #calls: CallExecutor;
  readonly #log: CallRunLog;
  readonly #memoryLog: MemoryCallRunLog | undefined;
  /** The runs this server drives, by id. */
  readonly #driving = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Followers on this server of a shared log, woken without a round trip to the log. */
  readonly #local = new Map<string, Set<() => void>>();
  #cancels: Promise<unknown> | undefined;
  /** Whether this server listens for cancellations asked on others (`#cancels` resolved). */
  #listening = false;

  constructor(calls: CallExecutor, log: CallRunLog = new MemoryCallRunLog()) {
    this.#calls = calls;
    this.#log = log;
    // A log of this process whose writes are its own records runs and events without a promise.
    const own = MemoryCallRunLog.prototype;
    const plain =
      log instanceof MemoryCallRunLog &&
      log.append === own.append &&
      log.create === own.create &&
      log.update === own.update;
    this.#memoryLog = plain ? log : undefined;
  }

  /** Starts `message` on `agency` in the background; `options.signal` is ignored (see `cancel`). */
  start(
    agency: string,
    message: AgencyInput,
    options: GetResponseOptions & { chatId: string },
  ): Promise<StartedCallRun> {
    return this.startWith({
      agency,
      chatId: options.chatId,
      events: (signal) => this.#calls.getResponseStream(agency, message, { ...options, signal }),
    });
  }

  /** Starts a call in the background: its first event, `run_started`, is recorded before this resolves. */
  async startWith(spec: CallRunSpec): Promise<StartedCallRun> {
    // Cancellations asked on other servers reach the runs this one drives.
    if (!this.#listening) {
      this.#cancels ??= this.#log
        .onCancel((runId, reason) => this.#driving.get(runId)?.controller.abort(new Error(reason)))
        .catch((error: unknown) => {
          this.#cancels = undefined; // the next start tries again
          throw error;
        });
      await this.#cancels;
      this.#listening = true;
    }
    const runId = `${CALL_RUN_PREFIX}${randomUUID()}`;
    const summary: CallRunSummary = {
      runId,
      kind: 'call',
      agency: spec.agency,
      chatId: spec.chatId,
      status: 'running',
      startedAt: new Date().toISOString(),
      events: 0,
    };
    const started: CallRunEvent = {
      type: 'run_started',
      runId,
      agency: spec.agency,
      chatId: spec.chatId,
    };
    if (this.#memoryLog) {
      this.#memoryLog.createNow(summary);
      this.#memoryLog.appendNow(runId, started);
    } else {
      await this.#log.create(summary);
      await this.#append(summary, started);
    }
    const controller = new AbortController();
    const done = this.#drive(summary, spec, controller).finally(() => this.#driving.delete(runId));
    this.#driving.set(runId, { controller, done });
    return { summary: { ...summary, events: 1 }, done };
  }

  async #append(summary: CallRunSummary, event: CallRunEvent): Promise<void> {
    await this.#appendNow(summary, event);
  }

  /**
   * Records an event; a log in this process records it at once (no promise per event of a call),
   * a shared one returns the promise of its write.
   */
  #appendNow(summary: CallRunSummary, event: CallRunEvent): Promise<void> | undefined {
    if (this.#memoryLog) {
      this.#memoryLog.appendNow(summary.runId, event); // which wakes its followers
      return undefined;
    }
    return this.#log.append(summary.runId, event).then(() => this.#wakeLocal(summary.runId));
  }

  #wakeLocal(runId: string): void {
    for (const wake of this.#local.get(runId) ?? []) wake();
  }

  async #drive(summary: CallRunSummary, spec: CallRunSpec, controller: AbortController) {
    const { signal } = controller;
    try {
      const events = spec.events(signal);
      if (this.#memoryLog && isEventFeed(events)) await this.#fed(summary, spec, events, signal);
      else {
        // Stops at once on cancel, without waiting for a model call that ignores its signal.
        for await (const event of untilAborted(events, signal)) {
          if (event.type === 'error') throw errorOf(event);
          if (event.type === 'run_completed') {
            summary.result = event.result;
            await spec.onCompleted?.(event.result);
          }
          const written = this.#appendNow(summary, event);
          if (written) await written;
        }
      }
      if (signal.aborted) throw signal.reason;
      if (summary.result === undefined) throw new Error('The call ended without a result.');
      summary.status = 'completed';
    } catch (error) {
      const cancelled = signal.aborted;
      summary.status = cancelled ? 'cancelled' : 'failed';
      summary.error = errorInfo(publicError(cancelled ? signal.reason : error));
      delete summary.result;
      await this.#append(summary, {
        type: 'run_failed',
        status: summary.status,
        error: summary.error,
      }).catch((cause: unknown) => this.#lost(summary, cause));
    }
    summary.endedAt = new Date().toISOString();
    try {
      if (this.#memoryLog) this.#memoryLog.updateNow(summary);
      else await this.#log.update(summary);
    } catch (cause) {
      this.#lost(summary, cause);
    }
    this.#wakeLocal(summary.runId);
  }

  /**
   * {@link CallRuns.#drive} for a call that feeds its events to an in-process log: each event is
   * recorded as the call emits it (no promise per event), `run_completed` after `onCompleted`.
   * Returns at once on cancel, without waiting for a model call that ignores its signal.
   */
  async #fed(
    summary: CallRunSummary,
    spec: CallRunSpec,
    events: EventFeed<AgencyStreamEvent>,
    signal: AbortSignal,
  ): Promise<void> {
    let failure: unknown;
    let completed: RunCompletedEvent | undefined;
    const fed = events.feed((event) => {
      if (signal.aborted || failure !== undefined) return;
      if (event.type === 'error') failure = errorOf(event);
      else if (event.type === 'run_completed') completed = event;
      else {
        try {
          this.#appendNow(summary, event);
        } catch (error) {
          failure = error;
        }
      }
    });
    // The feed's end or the abort, whichever is first: one promise (a `Promise.race` makes three more).
    await new Promise<void>((resolve) => {
      fed.then(resolve, (error: unknown) => {
        failure ??= error;
        resolve();
      });
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (signal.aborted) return;
    if (failure !== undefined) throw failure;
    if (!completed) return;
    summary.result = completed.result;
    await spec.onCompleted?.(completed.result);
    this.#appendNow(summary, completed);
  }

  #lost(summary: CallRunSummary, cause: unknown): void {
    getDefaultLogger().error(
      { component: 'callRuns', runId: summary.runId, status: summary.status, err: cause },
      `The end of background call ${summary.runId} (${summary.status}) could not be recorded: ${(cause as Error)?.message ?? String(cause)}. Its followers stop when they next poll.`,
    );
  }

  /** The summary of a background call, or `null` when it is not one (an ensemble run id, or unknown). */
  async state(runId: string): Promise<CallRunSummary | null> {
    if (!runId.startsWith(CALL_RUN_PREFIX)) return null;
    return this.#log.summary(runId);
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
    for await (const batch of this.followBatches(runId, after, signal)) yield* batch;
  }

  /**
   * Like {@link CallRuns.follow}, each read of the log at once: the events recorded since the last
   * read, in order (never empty), the last batch ending with the run's last event. A streaming
   * response walks a batch without an await per event (one generator step a batch).
   */
  async *followBatches(
    runId: string,
    after = -1,
    signal?: AbortSignal,
  ): AsyncGenerator<Array<[number, CallRunEvent]>> {
    if (!(await this.state(runId))) return;
    let wake: (() => void) | undefined;
    let changed = new Promise<void>((resolve) => (wake = resolve));
    // Once a wait: a burst of events wakes the follower once, not once an event.
    const poke = () => {
      const woken = wake;
      wake = undefined;
      woken?.();
    };
    const stopWatching = await this.#log.watch(runId, poke);
    // An in-process log wakes its watchers itself, and is read without a promise.
    const memory = this.#memoryLog;
    const local = this.#local.get(runId) ?? new Set();
    if (!memory) this.#local.set(runId, local.add(poke));
    signal?.addEventListener('abort', poke, { once: true });
    try {
      let next = Math.max(0, after + 1);
      while (!signal?.aborted) {
        const waiting = changed;
        const events = memory ? memory.eventsNow(runId, next) : await this.#log.events(runId, next);
        if (events.length > 0) {
          const batch: Array<[number, CallRunEvent]> = [];
          let last = false;
          for (const event of events) {
            batch.push([next, event]);
            next += 1;
            if ((last = isLastRunEvent(event))) break;
          }
          yield batch;
          if (last) return;
          continue;
        }
        const status = memory ? memory.statusNow(runId) : (await this.#log.summary(runId))?.status;
        if (status !== 'running') {
          // It ended while we read: take what it recorded meanwhile, then stop.
          const rest = memory ? memory.eventsNow(runId, next) : await this.#log.events(runId, next);
          if (rest.length === 0) return;
          continue;
        }
        // A log in this process always wakes us; a shared one may miss a wake: re-read it then.
        // Read after the rest of this turn of the event loop, so that the events it records come
        // in one batch (a call's events mostly come in bursts: a tool result, a reply's end).
        if (this.#log.wakesReliably) await waiting.then(nextTurn);
        else await Promise.race([waiting, sleep(1_000, undefined, { ref: false })]);
        changed = new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      signal?.removeEventListener('abort', poke);
      stopWatching();
      local.delete(poke);
      if (local.size === 0 && this.#local.get(runId) === local) this.#local.delete(runId);
    }
  }

  /**
   * Like {@link CallRuns.followBatches} with callbacks, for a log in this process: no promise a
   * batch (see memoryFollower.ts). Returns the function that stops following, or `undefined` when
   * the log is shared (follow it with {@link CallRuns.followBatches}).
   */
  followNow(runId: string, after: number, follower: BatchFollower): (() => void) | undefined {
    const memory = this.#memoryLog;
    return memory && followMemoryLog(memory, runId, after, follower);
  }

  /**
   * Cancels a running call wherever it runs and waits up to `waitMs` for it to stop; false when it
   * is not running, `null` when it is not a background call.
   */
  async cancel(runId: string, reason: string, waitMs = 5_000): Promise<boolean | null> {
    const summary = await this.state(runId);
    if (!summary) return null;
    if (summary.status !== 'running') return false;
    const local = this.#driving.get(runId);
    if (local) local.controller.abort(new Error(reason));
    else await this.#log.requestCancel(runId, reason);
    const until = Date.now() + waitMs;
    while (Date.now() < until && (await this.state(runId))?.status === 'running') await sleep(20);
    return true;
  }

  /** Cancels every call this server drives and waits for them to end. */
  async close(): Promise<void> {
    const driving = [...this.#driving.values()];
    for (const { controller } of driving) controller.abort(new Error('The server stopped.'));
    await Promise.all(driving.map(({ done }) => done));
  }
}
