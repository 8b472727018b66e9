/**
 * Where the queue keeps schedules: a hash of their specs, a status hash per schedule (counters
 * that every worker increments atomically), a mark per handled tick, and the BullMQ job
 * scheduler of each (`schedule:<id>`), whose ticks are `schedule-tick` jobs.
 * @module
 */
import type { Job, Queue } from './drivers.js';
import type { ScheduleStatus } from '../server/schedules/types.js';

/** The name of the jobs a schedule's BullMQ job scheduler makes, one per tick. */
export const SCHEDULE_TICK_JOB = 'schedule-tick';

/** The data of a tick job. */
export interface ScheduleTickData {
  scheduleId: string;
}

/** Keys of the queue's schedules under a queue prefix. */
export interface ScheduleKeys {
  /** A hash: schedule id → the stored schedule (JSON). */
  readonly specs: string;
  /** A hash: a schedule's counters and last run. */
  status(id: string): string;
  /** Set once a tick is handled (a retried tick job finds it and does nothing). */
  tick(id: string, tickAt: number): string;
}

/** The schedule keys under `prefix` (the queue's). */
export function scheduleKeys(prefix: string): ScheduleKeys {
  const own = `${prefix}:q:sched`;
  return {
    specs: `${own}:specs`,
    status: (id) => `${own}:${id}:status`,
    tick: (id, tickAt) => `${own}:${id}:tick:${tickAt}`,
  };
}

/** The BullMQ job scheduler id of a schedule. */
export function schedulerId(scheduleId: string): string {
  return `schedule:${scheduleId}`;
}

/**
 * Marks a tick handled and applies its counters, once: a Lua script, so a retried tick job (its
 * worker died) counts nothing twice. ARGV: field/increment pairs, then `|`, then field/value pairs.
 */
export const COUNT_TICK_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', 172800) then return 0 end
local i = 1
while ARGV[i] ~= '|' do
  redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
i = i + 1
while ARGV[i] do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
return 1
`;

/** A status hash as read back. */
export function statusOf(hash: Record<string, string>): ScheduleStatus {
  return {
    ticks: Number(hash.ticks ?? 0),
    runs: Number(hash.runs ?? 0),
    missed: Number(hash.missed ?? 0),
    ...(hash.lastRunAt ? { lastRunAt: hash.lastRunAt } : {}),
    ...(hash.lastRunId ? { lastRunId: hash.lastRunId } : {}),
    ...(hash.lastError ? { lastError: hash.lastError } : {}),
  };
}

/**
 * The error the job `jobId` (a scheduled run) ended with: a message, `null` when it completed,
 * `undefined` while it runs or when it is gone.
 */
export async function runError(queue: Queue, jobId: string): Promise<string | null | undefined> {
  const state = await queue.getJobState(jobId);
  if (state === 'failed') return (await queue.getJob(jobId))?.failedReason ?? 'failed';
  if (state !== 'completed') return undefined;
  const job: Job | undefined = await queue.getJob(jobId);
  const outcome = job?.returnvalue as { ok?: boolean; error?: { message?: string } } | null;
  if (!outcome) return undefined;
  return outcome.ok === false ? (outcome.error?.message ?? 'failed') : null;
}
