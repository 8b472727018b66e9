/**
 * Schedules on the queue (`serve --queue`): each is a BullMQ job scheduler (`upsertJobScheduler`)
 * whose one job per tick any worker takes, so a tick runs once however many workers and servers
 * there are; specs and status live in Redis beside the queue. Servers only add, list and remove
 * them: ticks run on workers (see `scheduleTick.ts`), and none runs while no worker does — those
 * ticks are counted as missed when a worker comes back, not run late.
 * @module
 */
import type { ScheduleSpec } from '../schedules/spec.js';
import { everyMs } from '../schedules/timing.js';
import { ColloquyError } from '../errors.js';
import { sameSpec } from '../server/schedules/check.js';
import type { StoredSchedule } from '../server/schedules/records.js';
import type { NewSchedule, Schedules, ScheduleView } from '../server/schedules/types.js';
import type { QueueClient } from './client.js';
import {
  runError,
  SCHEDULE_TICK_JOB,
  schedulerId,
  scheduleKeys,
  statusOf,
  type ScheduleKeys,
  type ScheduleTickData,
} from './scheduleKeys.js';

/** How many finished tick jobs BullMQ keeps per state (for inspection). */
const KEPT_TICKS = 100;

/** The schedules of a queued server (see the module comment). */
export class QueueSchedules implements Schedules {
  readonly kind = 'queue' as const;
  readonly #client: QueueClient;
  readonly #keys: ScheduleKeys;

  constructor(client: QueueClient) {
    this.#client = client;
    this.#keys = scheduleKeys(client.connection.prefix);
  }

  async add(schedule: NewSchedule, { replace = false } = {}): Promise<ScheduleView> {
    const existing = await this.#stored(schedule.id);
    if (existing && !replace) {
      throw new ColloquyError(
        'SCHEDULE_EXISTS',
        `Schedule "${schedule.id}" already exists. Remove it first (DELETE /schedules/${schedule.id}) or choose another id.`,
        { path: 'id' },
      );
    }
    const stored: StoredSchedule = {
      ...schedule,
      createdAt: existing?.createdAt ?? new Date().toISOString(),
    };
    await this.#client.enqueue(`schedule "${schedule.id}"`, async () => {
      await this.#client.redis.hset(this.#keys.specs, stored.id, JSON.stringify(stored));
      await this.#upsert(stored);
    });
    return this.#view(stored);
  }

  async list(): Promise<ScheduleView[]> {
    const all = await this.#client.enqueue('a list of schedules', () =>
      this.#client.redis.hgetall(this.#keys.specs),
    );
    const schedules = Object.values(all).map((text) => JSON.parse(text) as StoredSchedule);
    schedules.sort((a, b) => a.id.localeCompare(b.id));
    return Promise.all(schedules.map((schedule) => this.#view(schedule)));
  }

  async get(id: string): Promise<ScheduleView | null> {
    const stored = await this.#stored(id);
    return stored ? this.#view(stored) : null;
  }

  async remove(id: string): Promise<boolean> {
    return this.#client.enqueue(`the removal of schedule "${id}"`, async () => {
      await this.#client.queue.removeJobScheduler(schedulerId(id));
      const removed = await this.#client.redis.hdel(this.#keys.specs, id);
      await this.#client.redis.del(this.#keys.status(id));
      return removed > 0;
    });
  }

  /**
   * Adds or updates the config's schedules and removes config schedules no longer in it. A
   * schedule already there with the same spec is left alone, so servers starting together do
   * not reset each other's job schedulers.
   */
  async start(config: Record<string, ScheduleSpec> = {}): Promise<void> {
    const all = await this.list();
    for (const [id, spec] of Object.entries(config)) {
      const existing = all.find((schedule) => schedule.id === id);
      const scheduled = await this.#client.queue.getJobScheduler(schedulerId(id));
      if (existing?.source === 'config' && sameSpec(existing, spec) && scheduled) continue;
      await this.add({ ...spec, id, source: 'config' }, { replace: true });
    }
    for (const schedule of all)
      if (schedule.source === 'config' && !(schedule.id in config)) await this.remove(schedule.id);
  }

  async close(): Promise<void> {}

  async #stored(id: string): Promise<StoredSchedule | null> {
    const text = await this.#client.enqueue(`a read of schedule "${id}"`, () =>
      this.#client.redis.hget(this.#keys.specs, id),
    );
    return text ? (JSON.parse(text) as StoredSchedule) : null;
  }

  async #upsert(schedule: StoredSchedule): Promise<void> {
    const every = everyMs(schedule);
    const data: ScheduleTickData = { scheduleId: schedule.id };
    await this.#client.queue.upsertJobScheduler(
      schedulerId(schedule.id),
      every !== undefined ? { every } : { pattern: schedule.cron! },
      {
        name: SCHEDULE_TICK_JOB,
        data,
        opts: {
          attempts: 1,
          removeOnComplete: { count: KEPT_TICKS },
          removeOnFail: { count: KEPT_TICKS },
        },
      },
    );
  }

  async #view(schedule: StoredSchedule): Promise<ScheduleView> {
    const { redis, queue } = this.#client;
    const [hash, scheduler] = await Promise.all([
      redis.hgetall(this.#keys.status(schedule.id)),
      queue.getJobScheduler(schedulerId(schedule.id)),
    ]);
    const status = statusOf(hash);
    // The last run's outcome, if it ended since its tick recorded it.
    if (hash.lastJobId) {
      // The last run's job may be gone (removed, expired): the status then has no last error.
      const error = await runError(queue, hash.lastJobId).catch(() => undefined);
      if (error) status.lastError = error;
      else if (error === null) delete status.lastError;
    }
    if (scheduler?.next) status.nextTickAt = new Date(scheduler.next).toISOString();
    return { ...schedule, status };
  }
}
