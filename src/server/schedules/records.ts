/**
 * Schedules kept in a thread store, for servers without a queue: an append-only index thread
 * `colloquy-schedules` (each add and remove, appended at the version last read, so concurrent
 * writers never lose one) and one small record thread `colloquy-schedule:<id>` per schedule whose
 * metadata holds its status. Both are outside every chat, so chat lists never show them.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AgentInputItem } from '@openai/agents-core';
import { ConflictError } from '../../errors.js';
import type { ThreadStore } from '../../stores/types.js';
import { emptyStatus, type NewSchedule, type ScheduleStatus } from './types.js';

/** The index thread of schedules. */
export const SCHEDULE_INDEX_THREAD = 'colloquy-schedules';

/** The prefix of the record thread of each schedule. */
export const SCHEDULE_THREAD_PREFIX = 'colloquy-schedule:';

/** A schedule as stored: what was added, and when. */
export interface StoredSchedule extends NewSchedule {
  createdAt: string;
}

type IndexEntry = { op: 'add'; schedule: StoredSchedule } | { op: 'remove'; id: string };

/** The schedules of a thread store. */
export class ScheduleRecords {
  readonly #store: ThreadStore;

  constructor(store: ThreadStore) {
    this.#store = store;
  }

  /** Every schedule, by id, as the index says now. */
  async all(): Promise<Map<string, StoredSchedule>> {
    const schedules = new Map<string, StoredSchedule>();
    for (const { item } of await this.#store.readItems(SCHEDULE_INDEX_THREAD)) {
      const entry = JSON.parse((item as { content: string }).content) as IndexEntry;
      if (entry.op === 'add') schedules.set(entry.schedule.id, entry.schedule);
      else schedules.delete(entry.id);
    }
    return schedules;
  }

  /** Records a schedule (a new one, or a new version of one). */
  async put(schedule: StoredSchedule): Promise<void> {
    await this.#append({ op: 'add', schedule });
  }

  /** Forgets a schedule and its status. */
  async delete(id: string): Promise<void> {
    await this.#append({ op: 'remove', id });
    await this.#store.deleteThread(`${SCHEDULE_THREAD_PREFIX}${id}`);
  }

  /** A schedule's status (all zero before its first tick). */
  async status(id: string): Promise<ScheduleStatus> {
    const record = await this.#store.getThread(`${SCHEDULE_THREAD_PREFIX}${id}`);
    const status = record?.metadata.status as ScheduleStatus | undefined;
    return status ?? emptyStatus();
  }

  /** Saves a schedule's status. */
  async setStatus(id: string, status: ScheduleStatus): Promise<void> {
    await this.#store.setMetadata(`${SCHEDULE_THREAD_PREFIX}${id}`, { status }, null);
  }

  async #append(entry: IndexEntry): Promise<void> {
    const item = { role: 'system', content: JSON.stringify(entry) } as AgentInputItem;
    for (let attempt = 0; ; attempt++) {
      const version = (await this.#store.getThread(SCHEDULE_INDEX_THREAD))?.version ?? 0;
      try {
        await this.#store.append(SCHEDULE_INDEX_THREAD, [{ id: randomUUID(), item }], {
          expectedVersion: version,
          chatId: null,
        });
        return;
      } catch (error) {
        // Another writer appended first: read the new version and try again.
        if (!(error instanceof ConflictError) || attempt >= 20) throw error;
      }
    }
  }
}
