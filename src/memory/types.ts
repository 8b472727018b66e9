/**
 * What memory keeps and the interface of the places that keep it: vectors of messages (for
 * recall), working-memory documents (versioned) and compaction summaries.
 * @module
 */

/** One remembered message: a user message or an agent's answer in a chat's entry thread. */
export interface MemoryRecord {
  /** The thread item's id. */
  itemId: string;
  agency: string;
  userId: string;
  chatId: string;
  threadId: string;
  /** The item's position in its thread. */
  position: number;
  role: 'user' | 'assistant';
  /** The agent of the thread. */
  agent: string;
  text: string;
  /** The embedding model and size the vector was made with. */
  model: string;
  dimensions: number;
  createdAt: string;
}

/** A record with its vector, as written. */
export interface MemoryEntry extends MemoryRecord {
  vector: number[];
}

/** A search hit. */
export interface MemoryHit extends MemoryRecord {
  /** Cosine similarity to the query, -1..1. */
  similarity: number;
}

/** Whose records a search or listing covers. */
export interface MemoryScope {
  agency?: string;
  userId: string;
  /** Only these chats (default: all of the user's). */
  chatIds?: readonly string[];
}

/** One version of a working-memory document. */
export interface WorkingMemoryVersion {
  agency: string;
  userId: string;
  /** 1 for the first, counting up. */
  version: number;
  content: string;
  createdAt: string;
}

/** A compaction summary of the first `position` items of a thread. */
export interface SummaryRecord {
  threadId: string;
  position: number;
  /** The id of the last item covered (a rollback that replaced it makes the summary stale). */
  headId: string;
  /** The agency and user the chat belonged to, when known (for forget). */
  agency: string | null;
  userId: string | null;
  text: string;
  createdAt: string;
}

/** What {@link MemoryBackend.forget} deleted. */
export interface ForgetReport {
  vectors: number;
  workingVersions: number;
  summaries: number;
}

/**
 * Where memory lives. Every method is atomic; `addEntries` writes the vectors and the indexed
 * marks of their threads in one transaction, so a crash leaves either both or neither.
 */
export interface MemoryBackend {
  /** Short name, e.g. `sqlite`, `memory`. */
  readonly kind: string;
  /** The embedding model and size of the stored vectors, or null when none are stored. */
  embedding(): Promise<{ model: string; dimensions: number } | null>;
  /** Adds entries and records, per thread, how many of its items are indexed now. */
  addEntries(entries: readonly MemoryEntry[], marks: Record<string, number>): Promise<void>;
  /** How many items of a thread are indexed (0 when none). */
  indexedVersion(threadId: string): Promise<number>;
  /** The `k` entries of `scope` most similar to `query` (cosine), best first. */
  search(query: readonly number[], scope: MemoryScope, k: number): Promise<MemoryHit[]>;
  /** Every record of a user (of one agency, or all), oldest first. */
  list(scope: MemoryScope): Promise<MemoryRecord[]>;
  /** Every entry, vectors included (for re-embedding), in batches. */
  entries(scope?: Partial<MemoryScope>): AsyncIterable<MemoryEntry[]>;
  /** Replaces every stored vector (all of one model) after a change of embedder. */
  replaceVectors(entries: readonly MemoryEntry[]): Promise<void>;
  /** The newest working-memory version, or null. */
  getWorking(agency: string, userId: string): Promise<WorkingMemoryVersion | null>;
  /** Every working-memory version, oldest first. */
  workingVersions(agency: string, userId: string): Promise<WorkingMemoryVersion[]>;
  /** Adds a version (the next number) and returns it. */
  putWorking(agency: string, userId: string, content: string): Promise<WorkingMemoryVersion>;
  /** The summaries of a thread, by position. */
  summaries(threadId: string): Promise<SummaryRecord[]>;
  /** Stores a summary (replacing one at the same position). */
  putSummary(summary: SummaryRecord): Promise<void>;
  /** Deletes a user's vectors, working memory and summaries (of one agency, or all). */
  forget(userId: string, agency?: string): Promise<ForgetReport>;
  close(): Promise<void>;
}
