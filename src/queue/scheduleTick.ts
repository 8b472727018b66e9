/**
 * The worker side of queued schedules: a `schedule-tick` job (one per tick, made by the
 * schedule's BullMQ job scheduler) queues the tick's run as an ordinary call or ensemble-run job
 * whose id is the tick's, and counts it. A tick taken later than its grace (no worker ran at its
 * time) is counted as missed, with every tick that fell since, and runs nothing. A tick job
 * retried after its worker died adds no second run (the run's job id is taken) and counts
 * nothing twice (the tick's mark, set with the counters in one script).
 * @module
 */
import { Queue, type Job, type Redis } from './drivers.js';
import { getDefaultLogger } from '../logger.js';
import { everyMs, nextTick, ticksIn } from '../schedules/timing.js';
import { OwnerRecords } from '../server/ownership/owners.js';
import type { StoredSchedule } from '../server/schedules/records.js';
import { scheduledRunId } from '../server/schedules/localSchedules.js';
import { JOB_RETENTION } from './client.js';
import { QUEUE_NAME, type QueueConnection } from './connection.js';
import { JOB, type CallJobData, type RunJobData } from './jobs.js';
import {
  COUNT_TICK_SCRIPT,
  runError,
  schedulerId,
  scheduleKeys,
  type ScheduleKeys,
  type ScheduleTickData,
} from './scheduleKeys.js';
import type { JobContext } from './worker.js';

/** What a tick job did. */
export type TickOutcome =
  | { ran: string; tickAt: number }
  | { missed: number; tickAt: number }
  | { skipped: 'removed' | 'handled'; tickAt: number };

/**
 * When a tick job was due: BullMQ names scheduler jobs `repeat:<scheduler>:<millis>`; otherwise
 * its creation time plus its delay.
 */
export function tickTime(job: Job): number {
  const millis = Number(job.id?.slice(job.id.lastIndexOf(':') + 1));
  if (job.id?.startsWith('repeat:') && Number.isSafeInteger(millis)) return millis;
  return job.timestamp + (job.opts.delay ?? 0);
}

/** Options of {@link ScheduleTicks}. */
export interface ScheduleTicksOptions {
  /** How late a tick may start and still run, in ms (default: its interval, at most 30 s). */
  lateMs?: number;
}

/** Runs tick jobs for one worker (see the module comment). */
export class ScheduleTicks {
  readonly #queue: Queue;
  readonly #redis: Redis;
  readonly #keys: ScheduleKeys;
  readonly #options: ScheduleTicksOptions;
  #owners: OwnerRecords | undefined;

  constructor(connection: QueueConnection, redis: Redis, options: ScheduleTicksOptions = {}) {
    this.#redis = redis;
    this.#keys = scheduleKeys(connection.prefix);
    this.#options = options;
    this.#queue = new Queue(QUEUE_NAME, { connection: redis, prefix: connection.prefix });
    this.#queue.on('error', (error) =>
      getDefaultLogger().warn(
        { component: 'schedules', err: error },
        'the schedule ticks queue reported an error (it reconnects)',
      ),
    );
  }

  /** Handles one tick job. */
  async process(job: Job<ScheduleTickData>, context: JobContext): Promise<TickOutcome> {
    const id = job.data.scheduleId;
    const tickAt = tickTime(job);
    const text = await this.#redis.hget(this.#keys.specs, id);
    if (!text) {
      // Removed while its tick waited: no more ticks.
      await this.#queue.removeJobScheduler(schedulerId(id));
      return { skipped: 'removed', tickAt };
    }
    const schedule = JSON.parse(text) as StoredSchedule;
    const status = this.#keys.status(id);
    const mark = this.#keys.tick(id, tickAt);
    const now = Date.now();
    if (now - tickAt > (await this.#late(schedule, tickAt))) {
      const missed = Math.max(1, await ticksIn(schedule, tickAt - 1, now));
      const counted = await this.#count(mark, status, { missed }, {});
      return counted ? { missed, tickAt } : { skipped: 'handled', tickAt };
    }
    if (await this.#redis.exists(mark)) return { skipped: 'handled', tickAt };
    await this.#noteLastRun(status);
    let runId: string;
    let jobId: string;
    try {
      ({ runId, jobId } = await this.#start(schedule, tickAt, context));
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      getDefaultLogger().warn(
        { schedule: id, tickAt, err: error },
        'schedules: a scheduled run could not start',
      );
      await this.#count(mark, status, { ticks: 1 }, { lastError: message, lastJobId: '' });
      return { ran: '', tickAt };
    }
    await this.#count(
      mark,
      status,
      { ticks: 1, runs: 1 },
      { lastRunAt: new Date().toISOString(), lastRunId: runId, lastJobId: jobId },
    );
    return { ran: runId, tickAt };
  }

  /** Closes the producer queue (not the connection, which the worker owns). */
  async close(): Promise<void> {
    await this.#queue.close().catch(() => undefined); // closing: a dropped connection is closed
  }

  async #late(schedule: StoredSchedule, tickAt: number): Promise<number> {
    if (this.#options.lateMs !== undefined) return this.#options.lateMs;
    const interval = everyMs(schedule) ?? (await nextTick(schedule, tickAt)) - tickAt;
    return Math.min(interval, 30_000);
  }

  async #count(
    mark: string,
    status: string,
    increments: Record<string, number>,
    values: Record<string, string>,
  ): Promise<boolean> {
    const args = [
      ...Object.entries(increments).flatMap(([field, by]) => [field, String(by)]),
      '|',
      ...Object.entries(values).flat(),
    ];
    return (await this.#redis.eval(COUNT_TICK_SCRIPT, 2, mark, status, ...args)) === 1;
  }

  /** Records how the previous run ended (its error, or none) before the next one starts. */
  async #noteLastRun(status: string): Promise<void> {
    const last = await this.#redis.hget(status, 'lastJobId');
    if (!last) return;
    const error = await runError(this.#queue, last);
    if (error) await this.#redis.hset(status, 'lastError', error);
    else if (error === null) await this.#redis.hdel(status, 'lastError');
  }

  /** Queues the tick's run under ids of the tick: adding it again adds nothing. */
  async #start(
    schedule: StoredSchedule,
    tickAt: number,
    context: JobContext,
  ): Promise<{ runId: string; jobId: string }> {
    const runId = scheduledRunId(schedule, tickAt);
    const owners = (this.#owners ??= new OwnerRecords(context.registry.runs.store));
    if (schedule.agency !== undefined) {
      if (!context.registry.agencies.has(schedule.agency))
        throw new Error(`Agency "${schedule.agency}" is not served by the workers.`);
      if (schedule.user) await owners.claim('chat', runId, schedule.user);
      const jobId = `call_sched_${schedule.id}_${tickAt}`;
      const data: CallJobData = {
        callId: jobId,
        agency: schedule.agency,
        chatId: runId,
        message: schedule.message,
        stream: false,
        options: { chatId: runId, ...(schedule.user ? { userId: schedule.user } : {}) },
      };
      await this.#queue.add(JOB.call, data, { jobId, attempts: 1, ...JOB_RETENTION });
      return { runId, jobId };
    }
    if (schedule.user) await owners.claim('run', runId, schedule.user);
    const jobId = `runjob_sched_${schedule.id}_${tickAt}`;
    const data: RunJobData = {
      runId,
      ensemble: schedule.ensemble!,
      input: schedule.message,
      resume: false,
    };
    const { keys } = context;
    // As QueuedRuns queues a run: its job id under the run, so GET /runs/:id finds it.
    await this.#redis.set(keys.runJob(runId), jobId, 'EX', 7 * 86_400, 'NX');
    await this.#queue.add(JOB.run, data, {
      jobId,
      attempts: 1,
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 86_400 },
    });
    return { runId, jobId };
  }
}
