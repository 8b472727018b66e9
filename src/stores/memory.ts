/**
 * The reference {@link ThreadStore}: everything in process memory, lost on exit. Forks are O(1):
 * a thread points at a segment of items, and a fork starts a new segment on top of its parent.
 * @module
 */
import { ConflictError } from '../errors.js';
import type { ThreadItem } from './item.js';
import { MemoryLeases } from './lease.js';
import {
  archiveThreadId,
  checkFork,
  checkReset,
  jsonCopy,
  resolveRange,
  threadNotFound,
} from './common.js';
import { CheckpointBook } from './checkpointBook.js';
import type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';

/** Items appended on top of the first `base` visible items of `parent`. */
interface Segment {
  parent: Segment | null;
  base: number;
  /** Serialized items at positions `base`, `base + 1`, … */
  items: string[];
}

interface ThreadState {
  record: Omit<ThreadRecord, 'version'>;
  segment: Segment;
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
export class MemoryStore implements ThreadStore {
  readonly kind = 'memory';
  /** Leases of this store object (one process). */
  readonly leases = new MemoryLeases();
  readonly #threads = new Map<string, ThreadState>();
  readonly #checkpoints = new CheckpointBook();

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    const state = this.#threads.get(threadId);
    return state ? this.#record(state) : null;
  }

  async readItems(threadId: string, range?: ReadRange): Promise<ThreadItem[]> {
    const state = this.#threads.get(threadId);
    const { start, end } = resolveRange(threadId, state ? version(state) : 0, range);
    if (!state || start >= end) return [];
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

  async append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    const state = this.#threads.get(threadId);
    const current = state ? version(state) : 0;
    if (current !== options.expectedVersion)
      throw new ConflictError(threadId, options.expectedVersion, current);
    const serialized = items.map((i) => JSON.stringify(i));
    const target = state ?? this.#create(threadId, options.chatId ?? null, {});
    target.segment.items.push(...serialized);
    target.record.updatedAt = new Date().toISOString();
    return version(target);
  }

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    const state = this.#threads.get(threadId) ?? this.#create(threadId, chatId ?? null, {});
    state.record.metadata = jsonCopy(metadata);
    state.record.updatedAt = new Date().toISOString();
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    const ids = [...this.#threads.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return ids
      .map((id) => this.#threads.get(id)!)
      .filter((s) => filter.chatId === undefined || s.record.chatId === filter.chatId)
      .map((s) => this.#record(s));
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    const source = this.#threads.get(sourceId);
    if (!source) throw threadNotFound(`fork("${sourceId}" → "${targetId}")`, sourceId);
    const upTo = options.upTo ?? version(source);
    checkFork(sourceId, targetId, upTo, version(source), this.#threads.has(targetId));
    const chatId = options.chatId !== undefined ? options.chatId : source.record.chatId;
    const state = this.#create(targetId, chatId, options.metadata ?? source.record.metadata);
    state.segment = { parent: upTo === 0 ? null : source.segment, base: upTo, items: [] };
    state.record.forkedFrom = { threadId: sourceId, version: upTo };
    return this.#record(state);
  }

  async reset(threadId: string, target: number): Promise<string | null> {
    const state = this.#threads.get(threadId);
    if (!state) throw threadNotFound(`reset("${threadId}")`, threadId);
    const current = version(state);
    checkReset(threadId, target, current);
    if (target === current) return null;
    const archiveId = archiveThreadId(threadId);
    const archive = this.#create(archiveId, state.record.chatId, state.record.metadata);
    archive.segment = state.segment;
    archive.record.forkedFrom = { threadId, version: current };
    state.segment = { parent: target === 0 ? null : state.segment, base: target, items: [] };
    state.record.updatedAt = new Date().toISOString();
    return archiveId;
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    this.#checkpoints.put(checkpoint);
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    return this.#checkpoints.list(chatId);
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    return this.#checkpoints.get(checkpointId);
  }

  async close(): Promise<void> {
    this.#threads.clear();
    this.#checkpoints.clear();
  }

  #create(threadId: string, chatId: string | null, metadata: Record<string, unknown>): ThreadState {
    const now = new Date().toISOString();
    const state: ThreadState = {
      record: {
        threadId,
        chatId,
        metadata: jsonCopy(metadata),
        forkedFrom: null,
        createdAt: now,
        updatedAt: now,
      },
      segment: { parent: null, base: 0, items: [] },
    };
    this.#threads.set(threadId, state);
    return state;
  }

  #record(state: ThreadState): ThreadRecord {
    return { ...jsonCopy(state.record), version: version(state) };
  }
}
