/**
 * The schedules a server offers, wherever they run: {@link LocalSchedules} in this process, or
 * the queue's schedules (`colloquy/queue`) on BullMQ job schedulers that any worker runs.
 * @module
 */
import type { ScheduleSpec } from '../../schedules/spec.js';

/** How a schedule has fared. Ticks missed while nothing ran are counted, never run late. */
export interface ScheduleStatus {
  /** Ticks that fell due while a scheduler ran (each starts one run). */
  ticks: number;
  /** Runs started (one per tick; a tick whose run could not start counts in `ticks` only). */
  runs: number;
  /** Ticks skipped because nothing ran at their time (downtime, or a tick picked up too late). */
  missed: number;
  /** ISO time of the last run started. */
  lastRunAt?: string;
  /** The id of the last run (an agency call's chat, or an ensemble run id). */
  lastRunId?: string;
  /** Why the last run (or its start) failed; cleared by the next run that completes. */
  lastError?: string;
  /** ISO time of the next tick, when a scheduler has planned it. */
  nextTickAt?: string;
}

/** A schedule as the API lists it: its spec, id, owner and status. */
export interface ScheduleView extends ScheduleSpec {
  id: string;
  /** `config` for the `schedules:` of colloquy.yaml, `api` for POST /schedules and the CLI. */
  source: 'config' | 'api';
  createdAt: string;
  status: ScheduleStatus;
}

/** A schedule to add: its spec, id and where it came from. */
export interface NewSchedule extends ScheduleSpec {
  id: string;
  source: 'config' | 'api';
}

/** The schedules of a server (in this process, or on the queue). */
export interface Schedules {
  /** Where ticks run, for messages: `in-process` or `queue`. */
  readonly kind: 'in-process' | 'queue';
  /**
   * Adds a schedule; with `replace`, one of the same id is updated (its status kept). Throws a
   * 409 HttpError (`SCHEDULE_EXISTS`) for a taken id otherwise.
   */
  add(schedule: NewSchedule, options?: { replace?: boolean }): Promise<ScheduleView>;
  /** Every schedule, by id. */
  list(): Promise<ScheduleView[]>;
  /** One schedule, or `null`. */
  get(id: string): Promise<ScheduleView | null>;
  /** Removes a schedule; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * Starts ticking (in-process) and adds or updates the `schedules:` of colloquy.yaml (`config`),
   * removing config schedules no longer in it. Idempotent across processes.
   */
  start(config?: Record<string, ScheduleSpec>): Promise<void>;
  /** Stops ticking; runs already started are left to the executor. */
  close(): Promise<void>;
}

/** The view of a schedule with no tick yet. */
export function emptyStatus(): ScheduleStatus {
  return { ticks: 0, runs: 0, missed: 0 };
}
