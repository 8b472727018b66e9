/**
 * The in-process memory backend: the reference implementation of {@link MemoryBackend}, with an
 * exact scan for search. Nothing survives the process.
 * @module
 */
import { ConfigError } from '../errors.js';
import { cosine } from './embedder.js';
import type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  MemoryScope,
  SummaryRecord,
  WorkingMemoryVersion,
} from './types.js';

/** Whether an entry is in a scope. */
export function inScope(entry: MemoryRecord, scope: Partial<MemoryScope>): boolean {
  return (
    (scope.userId === undefined || entry.userId === scope.userId) &&
    (scope.agency === undefined || entry.agency === scope.agency) &&
    (scope.chatIds === undefined || scope.chatIds.includes(entry.chatId))
  );
}

/** The error for vectors of another embedder than the stored ones. */
export function mixedEmbedders(
  known: { model: string; dimensions: number },
  entry: { model: string; dimensions: number },
): ConfigError {
  return new ConfigError(
    `Memory holds vectors of ${known.model} (${known.dimensions} numbers), not ${entry.model} (${entry.dimensions}). Run colloquy memory reembed, or go back to the old embedder.`,
  );
}

/** A record without its vector. */
export function recordOf(entry: MemoryEntry): MemoryRecord {
  const {
    vector: _vector,
    floats: _floats,
    ...record
  } = entry as MemoryEntry & { floats?: unknown };
  return record;
}

/**
 * Memory kept in this process (the default with `MemoryStore` threads).
 *
 * @example
 * ```ts
 * const agency = new Agency({ entryPoints: [agent], threads: new ThreadManager({ store: new MemoryStore() }),
 *   memory: { embedder: new HashedEmbedder(), recall: {}, store: new InMemoryMemory() } });
 * ```
 */
export class InMemoryMemory implements MemoryBackend {
  readonly kind = 'memory';
  /** Entries with their vectors as 32-bit floats (half the memory of number arrays). */
  readonly #entries = new Map<string, MemoryEntry & { floats: Float32Array }>();
  readonly #marks = new Map<string, number>();
  readonly #working = new Map<string, WorkingMemoryVersion[]>();
  readonly #summaries = new Map<string, SummaryRecord[]>();

  #embedding(): { model: string; dimensions: number } | null {
    const first = this.#entries.values().next().value as MemoryEntry | undefined;
    return first ? { model: first.model, dimensions: first.dimensions } : null;
  }

  embedding(): Promise<{ model: string; dimensions: number } | null> {
    return Promise.resolve(this.#embedding());
  }

  addEntries(entries: readonly MemoryEntry[], marks: Record<string, number>): Promise<void> {
    const known = this.#embedding();
    const other = entries.find(
      (e) => known && (e.model !== known.model || e.dimensions !== known.dimensions),
    );
    if (known && other) return Promise.reject(mixedEmbedders(known, other));
    for (const { vector, ...record } of entries) {
      this.#entries.set(`${record.threadId}\0${record.itemId}`, {
        ...record,
        vector: [],
        floats: Float32Array.from(vector),
      });
    }
    for (const [threadId, version] of Object.entries(marks)) this.#marks.set(threadId, version);
    return Promise.resolve();
  }

  indexedVersion(threadId: string): Promise<number> {
    return Promise.resolve(this.#marks.get(threadId) ?? 0);
  }

  search(query: readonly number[], scope: MemoryScope, k: number): Promise<MemoryHit[]> {
    // An exact scan keeping the best k (no object per entry, no sort of the whole set).
    const best: Array<{ entry: MemoryEntry; similarity: number }> = [];
    for (const entry of this.#entries.values()) {
      if (!inScope(entry, scope)) continue;
      const similarity = cosine(query, entry.floats);
      if (best.length === k && similarity <= best[k - 1]!.similarity) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.similarity < similarity) at--;
      best.splice(at, 0, { entry, similarity });
      if (best.length > k) best.pop();
    }
    return Promise.resolve(
      best.map(({ entry, similarity }) => ({ ...recordOf(entry), similarity })),
    );
  }

  list(scope: MemoryScope): Promise<MemoryRecord[]> {
    return Promise.resolve(
      [...this.#entries.values()]
        .filter((entry) => inScope(entry, scope))
        .map(recordOf)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    );
  }

  async *entries(scope: Partial<MemoryScope> = {}): AsyncIterable<MemoryEntry[]> {
    await Promise.resolve();
    yield [...this.#entries.values()]
      .filter((entry) => inScope(entry, scope))
      .map(({ floats, ...entry }) => ({ ...entry, vector: Array.from(floats) }));
  }

  replaceVectors(entries: readonly MemoryEntry[]): Promise<void> {
    this.#entries.clear();
    return this.addEntries(entries, {});
  }

  getWorking(agency: string, userId: string): Promise<WorkingMemoryVersion | null> {
    return Promise.resolve(this.#working.get(`${agency}\0${userId}`)?.at(-1) ?? null);
  }

  workingVersions(agency: string, userId: string): Promise<WorkingMemoryVersion[]> {
    return Promise.resolve([...(this.#working.get(`${agency}\0${userId}`) ?? [])]);
  }

  putWorking(agency: string, userId: string, content: string): Promise<WorkingMemoryVersion> {
    const key = `${agency}\0${userId}`;
    const versions = this.#working.get(key) ?? [];
    const version: WorkingMemoryVersion = {
      agency,
      userId,
      version: versions.length + 1,
      content,
      createdAt: new Date().toISOString(),
    };
    this.#working.set(key, [...versions, version]);
    return Promise.resolve(version);
  }

  summaries(threadId: string): Promise<SummaryRecord[]> {
    return Promise.resolve([...(this.#summaries.get(threadId) ?? [])]);
  }

  putSummary(summary: SummaryRecord): Promise<void> {
    const kept = (this.#summaries.get(summary.threadId) ?? []).filter(
      (s) => s.position !== summary.position,
    );
    this.#summaries.set(
      summary.threadId,
      [...kept, summary].sort((a, b) => a.position - b.position),
    );
    return Promise.resolve();
  }

  forget(userId: string, agency?: string): Promise<ForgetReport> {
    const report: ForgetReport = { vectors: 0, workingVersions: 0, summaries: 0 };
    for (const [key, entry] of this.#entries) {
      if (!inScope(entry, { userId, ...(agency ? { agency } : {}) })) continue;
      this.#entries.delete(key);
      report.vectors += 1;
    }
    for (const [key, versions] of this.#working) {
      const [a, u] = key.split('\0');
      if (u !== userId || (agency !== undefined && a !== agency)) continue;
      report.workingVersions += versions.length;
      this.#working.delete(key);
    }
    for (const [threadId, list] of this.#summaries) {
      const kept = list.filter(
        (s) => s.userId !== userId || (agency !== undefined && s.agency !== agency),
      );
      report.summaries += list.length - kept.length;
      this.#summaries.set(threadId, kept);
    }
    return Promise.resolve(report);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
