/**
 * The reference {@link ThreadStore}: everything in process memory, lost on exit. Forks are O(1):
 * a thread points at a segment of items, and a fork starts a new segment on top of its parent.
 * @module
 */
import { ConflictError } from '../errors.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import type { StoreCapabilities } from './capabilities.js';
import type { ThreadItem } from './item.js';
import { MemoryLeases } from './lease.js';
import { jsonCopy, rangeSpan } from './common.js';
import type { AppendOptions, ReadRange, ThreadRecord } from './types.js';

/** Items appended on top of the first `base` visible items of `parent`. */
interface Segment {
  parent: Segment | null;
  base: number;
  /** Serialized items at positions `base`, `base + 1`, … */
  items: string[];
}

interface ThreadState {
  /** The record without its version and times (formatted only when read). */
  record: Omit<ThreadRecord, 'version' | 'createdAt' | 'updatedAt'>;
  /** Creation and last change, ms since the epoch. */
  createdMs: number;
  updatedMs: number;
  segment: Segment;
}

function hasKeys(object: Record<string, unknown>): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

function version(state: ThreadState): number {
  return state.segment.base + state.segment.items.length;
}

/**
 * An in-memory thread store: fast, not durable, the behaviour every other backend must match.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.append('main', [{ id: 'm1', item: { role: 'user', content: 'hi' } }], { expectedVersion: 0 });
 * const forked = await store.fork('main', 'what-if');
 * ```
 */
export class MemoryStore extends BaseStore {
  readonly kind = 'memory';
  /**
   * Leases of this store object alone, which an Agency's chat gate already serializes: hence
   * `capabilities.leases` is false (run leases still use them).
   */
  readonly leases = new MemoryLeases();
  readonly capabilities: StoreCapabilities = {
    leases: false,
    appendMany: false,
    traces: false,
    crossProcess: false,
  };
  readonly #threads = new Map<string, ThreadState>();

  protected async readRecord(threadId: string): Promise<ThreadRecord | null> {
    const state = this.#threads.get(threadId);
    return state ? this.#record(state) : null;
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    const state = this.#threads.get(threadId);
    if (!state) return [];
    const { start, end } = rangeSpan(version(state), range);
    if (start >= end) return [];
    const out: string[][] = [];
    let visibleEnd = end;
    for (let seg: Segment | null = state.segment; seg && visibleEnd > start; seg = seg.parent) {
      const lo = Math.max(start, seg.base);
      if (lo < visibleEnd) out.push(seg.items.slice(lo - seg.base, visibleEnd - seg.base));
      visibleEnd = Math.min(visibleEnd, seg.base);
    }
    return out
      .reverse()
      .flat()
      .map((s) => JSON.parse(s) as ThreadItem);
  }

  protected async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    const state = this.#threads.get(threadId);
    const current = state ? version(state) : 0;
    if (current !== options.expectedVersion)
      throw new ConflictError(threadId, options.expectedVersion, current);
    if (bodies.length === 0) return current;
    const target = state ?? this.#create(threadId, options.chatId ?? null, '{}');
    target.segment.items.push(...bodies);
    target.updatedMs = Date.now();
    return version(target);
  }

  protected async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    const state = this.#threads.get(threadId) ?? this.#create(threadId, chatId ?? null, '{}');
    state.record.metadata = JSON.parse(metadata) as Record<string, unknown>;
    state.updatedMs = Date.now();
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    const ids = [...this.#threads.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return ids
      .map((id) => this.#threads.get(id)!)
      .filter((s) => chatId === undefined || s.record.chatId === chatId)
      .map((s) => this.#record(s));
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const source = this.#threads.get(request.sourceId);
    const upTo = request.check(
      source ? version(source) : null,
      this.#threads.has(request.targetId),
    );
    const { record, segment } = source!;
    const chatId = request.chatId !== undefined ? request.chatId : record.chatId;
    const state = this.#create(
      request.targetId,
      chatId,
      request.metadata ?? JSON.stringify(record.metadata),
    );
    state.segment = { parent: upTo === 0 ? null : segment, base: upTo, items: [] };
    state.record.forkedFrom = { threadId: request.sourceId, version: upTo };
    return this.#record(state);
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version: target, archiveId } = request;
    const state = this.#threads.get(threadId);
    const current = state ? version(state) : null;
    if (!request.check(current)) return null;
    const { record, segment } = state!;
    const archive = this.#create(archiveId, record.chatId, JSON.stringify(record.metadata));
    archive.segment = segment;
    archive.record.forkedFrom = { threadId, version: current! };
    state!.segment = { parent: target === 0 ? null : segment, base: target, items: [] };
    state!.updatedMs = Date.now();
    return archiveId;
  }

  protected async removeThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  async close(): Promise<void> {
    this.#threads.clear();
    this.clearCheckpoints();
  }

  /** A new thread with `metadata` (JSON text). */
  #create(threadId: string, chatId: string | null, metadata: string): ThreadState {
    const now = Date.now();
    const state: ThreadState = {
      record: {
        threadId,
        chatId,
        metadata: metadata === '{}' ? {} : (JSON.parse(metadata) as Record<string, unknown>),
        forkedFrom: null,
      },
      createdMs: now,
      updatedMs: now,
      segment: { parent: null, base: 0, items: [] },
    };
    this.#threads.set(threadId, state);
    return state;
  }

  /**
   * A copy the caller may change: fields copied one by one, only non-empty metadata deeply; the
   * times formatted here (appends only take `Date.now()`: most records are never read).
   */
  #record(state: ThreadState): ThreadRecord {
    const { record } = state;
    return {
      threadId: record.threadId,
      chatId: record.chatId,
      metadata: hasKeys(record.metadata) ? jsonCopy(record.metadata) : {},
      forkedFrom: record.forkedFrom ? { ...record.forkedFrom } : null,
      createdAt: new Date(state.createdMs).toISOString(),
      updatedAt: new Date(state.updatedMs).toISOString(),
      version: version(state),
    };
  }
}
