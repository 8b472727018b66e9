/**
 * Schedules that tick in this process (a server without a queue): a timer per schedule, records
 * and status in the thread store ({@link ScheduleRecords}). A tick that fires later than its
 * grace (the process was down, asleep or blocked) is skipped and counted as missed, never run
 * late; on start, the ticks that fell while the process was down are counted the same way.
 * Schedules added by another process (the `colloquy schedule` CLI) are picked up within `syncMs`.
 * @module
 */
import { storeCapabilities } from '../../stores/capabilities.js';
import { ColloquyError, ConfigError } from '../../errors.js';
import { getDefaultLogger } from '../../logger.js';
import type { ScheduleSpec } from '../../schedules/spec.js';
import { everyMs, nextTick, ticksIn } from '../../schedules/timing.js';
import type { ThreadStore } from '../../stores/types.js';
import type { Executor } from '../executor.js';
import type { OwnerRecords } from '../ownership/owners.js';
import { sameSpec } from './check.js';
import { ScheduleRecords, type StoredSchedule } from './records.js';
import type { NewSchedule, Schedules, ScheduleStatus, ScheduleView } from './types.js';

/** Options of {@link LocalSchedules}. */
export interface LocalSchedulesOptions {
  /** Where schedules and their status are kept (a server's `registry.runs.store`). */
  store: ThreadStore;
  /** Where each tick's run runs (needed to start; the CLI only adds, lists and removes). */
  executor?: Executor;
  /** Records each run's chat or run id as its schedule's `user`'s (servers with users). */
  owners?: OwnerRecords;
  /**
   * How often schedules added by other processes are looked for, in ms (default 5000 on stores
   * other processes write: SQLite, JSON files, Redis, Postgres; never on others, such as memory or
   * a remote Conversations API, which would be polled for nothing). `0`: never.
   */
  syncMs?: number;
  /**
   * How late a tick may fire and still run, in ms (default: the schedule's interval, at most
   * 30 s); a later one is counted as missed.
   */
  lateMs?: number;
}

/** The longest a timer waits before checking again (Node's timers overflow past ~24.8 days). */
const MAX_WAIT_MS = 3_600_000;

interface Armed {
  schedule: StoredSchedule;
  status: ScheduleStatus;
  timer?: NodeJS.Timeout;
  stopped: boolean;
}

/** The chat (agency) or run id (ensemble) of a schedule's run for the tick at `tickAt`. */
export function scheduledRunId(schedule: NewSchedule, tickAt: number): string {
  return `${schedule.agency !== undefined ? 'chat' : 'run'}_sched_${schedule.id}_${tickAt}`;
}

/** Schedules run by timers in this process (see the module comment). */
export class LocalSchedules implements Schedules {
  readonly kind = 'in-process' as const;
  readonly #records: ScheduleRecords;
  readonly #options: LocalSchedulesOptions;
  readonly #armed = new Map<string, Armed>();
  readonly #saves = new Map<string, Promise<void>>();
  #sync: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;

  constructor(options: LocalSchedulesOptions) {
    this.#options = options;
    this.#records = new ScheduleRecords(options.store);
  }

  async add(schedule: NewSchedule, { replace = false } = {}): Promise<ScheduleView> {
    const existing = (await this.#records.all()).get(schedule.id);
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
    await this.#records.put(stored);
    if (this.#started) await this.#arm(stored);
    return this.#view(stored, await this.#statusOf(stored.id));
  }

  async list(): Promise<ScheduleView[]> {
    const all = [...(await this.#records.all()).values()];
    return Promise.all(all.map(async (s) => this.#view(s, await this.#statusOf(s.id))));
  }

  async get(id: string): Promise<ScheduleView | null> {
    const schedule = (await this.#records.all()).get(id);
    return schedule ? this.#view(schedule, await this.#statusOf(id)) : null;
  }

  async remove(id: string): Promise<boolean> {
    if (!(await this.#records.all()).has(id)) return false;
    this.#disarm(id);
    await this.#saves.get(id);
    await this.#records.delete(id);
    return true;
  }

  async start(config: Record<string, ScheduleSpec> = {}): Promise<void> {
    if (!this.#options.executor)
      throw new ConfigError(
        'LocalSchedules: pass an executor to start schedules (where ticks run).',
      );
    const all = await this.#records.all();
    for (const [id, spec] of Object.entries(config)) {
      const existing = all.get(id);
      if (existing && existing.source === 'config' && sameSpec(existing, spec)) continue;
      await this.add({ ...spec, id, source: 'config' }, { replace: true });
    }
    for (const schedule of all.values())
      if (schedule.source === 'config' && !(schedule.id in config)) await this.remove(schedule.id);
    this.#started = true;
    await this.#refresh();
    // A store whose leases reach beyond this object keeps its records where another process (or
    // another store object on the same file) may change them: poll for those changes.
    const shared = storeCapabilities(this.#options.store).leases;
    const syncMs = this.#options.syncMs ?? (shared ? 5_000 : 0);
    if (syncMs <= 0) return;
    this.#sync = setInterval(() => {
      this.#refresh().catch((error: unknown) =>
        getDefaultLogger().warn({ err: error }, 'schedules: could not read the schedule records'),
      );
    }, syncMs);
    this.#sync.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sync);
    for (const id of [...this.#armed.keys()]) this.#disarm(id);
    await Promise.all(this.#saves.values());
  }

  /** Arms new and changed schedules and disarms removed ones (another process may have edited). */
  async #refresh(): Promise<void> {
    const all = await this.#records.all();
    for (const id of this.#armed.keys()) if (!all.has(id)) this.#disarm(id);
    for (const schedule of all.values()) {
      const armed = this.#armed.get(schedule.id);
      if (!armed || !sameSpec(armed.schedule, schedule)) await this.#arm(schedule);
    }
  }

  async #statusOf(id: string): Promise<ScheduleStatus> {
    const armed = this.#armed.get(id);
    return armed ? { ...armed.status } : this.#records.status(id);
  }

  #view(schedule: StoredSchedule, status: ScheduleStatus): ScheduleView {
    return { ...schedule, status };
  }

  async #arm(schedule: StoredSchedule): Promise<void> {
    if (this.#closed) return;
    this.#disarm(schedule.id);
    const armed: Armed = {
      schedule,
      status: await this.#records.status(schedule.id),
      stopped: false,
    };
    this.#armed.set(schedule.id, armed);
    const now = Date.now();
    const planned = armed.status.nextTickAt ? Date.parse(armed.status.nextTickAt) : undefined;
    let next: number;
    if (
      planned !== undefined &&
      planned <= now &&
      now - planned <= (await this.#late(armed, planned))
    ) {
      next = planned; // due a moment ago (a restart within its grace): run it now
    } else {
      if (planned !== undefined && planned <= now) {
        // The ticks that fell while nothing ran: counted, not run.
        armed.status.missed += await ticksIn(schedule, planned - 1, now);
      }
      next = await nextTick(schedule, now);
    }
    this.#plan(armed, next);
  }

  #disarm(id: string): void {
    const armed = this.#armed.get(id);
    if (!armed) return;
    armed.stopped = true;
    clearTimeout(armed.timer);
    this.#armed.delete(id);
  }

  async #late(armed: Armed, tickAt: number): Promise<number> {
    if (this.#options.lateMs !== undefined) return this.#options.lateMs;
    const interval = everyMs(armed.schedule) ?? (await nextTick(armed.schedule, tickAt)) - tickAt;
    return Math.min(interval, 30_000);
  }

  #plan(armed: Armed, tickAt: number): void {
    if (armed.stopped) return;
    armed.status.nextTickAt = new Date(tickAt).toISOString();
    this.#save(armed);
    const wait = Math.max(0, Math.min(tickAt - Date.now(), MAX_WAIT_MS));
    armed.timer = setTimeout(() => {
      if (Date.now() < tickAt) return this.#plan(armed, tickAt); // a long wait, in steps
      this.#fire(armed, tickAt).catch((error: unknown) =>
        getDefaultLogger().error(
          { err: error, schedule: armed.schedule.id },
          'schedules: a tick could not be planned',
        ),
      );
    }, wait);
    armed.timer.unref();
  }

  async #fire(armed: Armed, tickAt: number): Promise<void> {
    if (armed.stopped) return;
    const now = Date.now();
    if (now - tickAt > (await this.#late(armed, tickAt))) {
      armed.status.missed += Math.max(1, await ticksIn(armed.schedule, tickAt - 1, now));
    } else {
      armed.status.ticks += 1;
      this.#run(armed, tickAt);
    }
    this.#plan(armed, await nextTick(armed.schedule, Math.max(now, tickAt)));
  }

  /** Starts the tick's run; its outcome lands in the status when it ends. */
  #run(armed: Armed, tickAt: number): void {
    const { schedule, status } = armed;
    const runId = scheduledRunId(schedule, tickAt);
    status.runs += 1;
    status.lastRunAt = new Date().toISOString();
    status.lastRunId = runId;
    const done = this.#execute(schedule, runId).then(
      () => {
        if (status.lastRunId === runId) delete status.lastError;
      },
      (error: unknown) => {
        const message = (error as Error)?.message ?? String(error);
        status.lastError = message;
        getDefaultLogger().warn(
          { schedule: schedule.id, runId, err: error },
          'schedules: a scheduled run failed',
        );
      },
    );
    void done.then(() => this.#save(armed));
  }

  async #execute(schedule: StoredSchedule, runId: string): Promise<void> {
    const { owners } = this.#options;
    const executor = this.#options.executor!;
    if (schedule.agency !== undefined) {
      if (schedule.user && owners) await owners.claim('chat', runId, schedule.user);
      await executor.calls.getResponse(schedule.agency, schedule.message, {
        chatId: runId,
        ...(schedule.user ? { userId: schedule.user } : {}),
      });
      return;
    }
    if (schedule.user && owners) await owners.claim('run', runId, schedule.user);
    await executor.runs.start(schedule.ensemble!, { input: schedule.message, runId });
    for await (const [, event] of executor.runs.follow(runId)) {
      if (event.type === 'error') throw new Error(event.error.message);
    }
  }

  /** Saves a schedule's status, one write at a time per schedule. */
  #save(armed: Armed): void {
    if (this.#closed && armed.stopped) return;
    const id = armed.schedule.id;
    const status = { ...armed.status };
    const previous = this.#saves.get(id) ?? Promise.resolve();
    const saving = previous
      .then(() => (armed.stopped ? undefined : this.#records.setStatus(id, status)))
      .catch((error: unknown) =>
        getDefaultLogger().warn({ err: error, schedule: id }, 'schedules: could not save a status'),
      );
    this.#saves.set(id, saving);
    void saving.then(() => {
      if (this.#saves.get(id) === saving) this.#saves.delete(id);
    });
  }
}
