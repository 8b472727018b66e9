/**
 * The `memory` option of an agency: recall, working memory and compaction, with their defaults
 * resolved and checked in one place (at construction, before any call).
 * @module
 */
import type { Model } from '@openai/agents-core';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { MemoryStore } from '../stores/memory.js';
import { SqliteStore } from '../stores/sqlite.js';
import type { ThreadStore } from '../stores/types.js';
import { embedderModel, profileEmbedder, type Embedder } from './embedder.js';
import { InMemoryMemory } from './memoryBackend.js';
import { SqliteMemory } from './sqliteMemory.js';
import type { MemoryBackend } from './types.js';

/** Options of semantic recall. */
export interface RecallOptions {
  /** How many recalled messages at most (default 5). */
  topK?: number;
  /** The lowest cosine similarity recalled (default 0.3). */
  minSimilarity?: number;
  /** `user`: all the user's chats with this agency (default); `chat`: the current chat's history. */
  scope?: 'user' | 'chat';
  /** Agents that get the recall block (default: the entry points). */
  agents?: string[];
  /** How long the embedder may take before the turn runs without recall (default 5000 ms). */
  timeoutMs?: number;
}

/** Options of compaction. */
export interface CompactionOptions {
  /** The most estimated tokens a pair thread's view may take (recall block included). */
  maxTokens: number;
  /** The model that writes summaries: a model object, or a profile or model name. */
  summarizer: Model | string;
}

/** The `memory` option of `new Agency({ memory })`. */
export interface MemoryOptions {
  /**
   * Where memory lives. Default: beside the threads: SQLite (sqlite-vec) in the `SqliteStore`'s
   * file, in-process with `MemoryStore`; other stores need one given here.
   */
  store?: MemoryBackend;
  /** The embedder (recall): an {@link Embedder}, or a profile name looked up in `profiles`. */
  embedder?: Embedder | string;
  /** Profiles for an embedder given by name. */
  profiles?: ProfileRegistry;
  /** Semantic recall across the user's chats (needs `embedder` and a `userId` per call). */
  recall?: RecallOptions;
  /** A per-user document in every agent's instructions, updated with `update_working_memory`. */
  working?: boolean | { schema: z.ZodObject };
  /** Summarise the oldest part of long pair threads (needs no `userId`). */
  compaction?: CompactionOptions;
}

/** The memory options with defaults applied. */
export interface ResolvedMemory {
  backend: MemoryBackend;
  embedder: Embedder | undefined;
  recall: (Required<Omit<RecallOptions, 'agents'>> & { agents: string[] | undefined }) | undefined;
  working: { schema: z.ZodObject | undefined } | undefined;
  compaction: CompactionOptions | undefined;
}

/** The memory backend beside a thread store, or an error naming the fix. */
export function defaultBackend(store: ThreadStore): MemoryBackend {
  if (store instanceof SqliteStore) return new SqliteMemory({ store });
  if (store instanceof MemoryStore) return new InMemoryMemory();
  throw new ConfigError(
    `memory: the ${store.kind} thread store keeps no vectors. Pass memory: { store }: new PostgresMemory({ connectionString }) (colloquy/postgres), new RedisMemory({ url }) (colloquy/redis), new SqliteMemory({ path }) or new InMemoryMemory().`,
  );
}

/** Applies defaults and checks `options` for agency `agency` with `entryPoints` and `agents`. */
export function resolveMemory(
  options: MemoryOptions,
  store: ThreadStore,
  agents: ReadonlySet<string>,
): ResolvedMemory {
  const embedder =
    typeof options.embedder === 'string'
      ? embedderOfProfile(options.embedder, options.profiles)
      : options.embedder;
  if (options.recall && !embedder) {
    throw new ConfigError(
      'memory.recall needs an embedder: memory: { embedder, recall: {} } (HashedEmbedder from colloquy/testing works offline).',
    );
  }
  if (embedder && (!Number.isInteger(embedder.dimensions) || embedder.dimensions < 1)) {
    throw new ConfigError(
      `memory.embedder.dimensions must be a whole number ≥ 1 (got ${embedder.dimensions}).`,
    );
  }
  const recall = options.recall;
  for (const agent of recall?.agents ?? []) {
    if (!agents.has(agent)) {
      throw new ConfigError(
        `memory.recall.agents names "${agent}", which is not an agent of this agency. Agents: ${[...agents].join(', ')}.`,
      );
    }
  }
  const topK = recall?.topK ?? 5;
  if (!Number.isInteger(topK) || topK < 1) {
    throw new ConfigError(`memory.recall.topK must be a whole number ≥ 1 (got ${topK}).`);
  }
  const compaction = options.compaction;
  if (compaction && !(compaction.maxTokens >= 64)) {
    throw new ConfigError(
      `memory.compaction.maxTokens must be at least 64 estimated tokens (got ${compaction.maxTokens}).`,
    );
  }
  if (compaction && !compaction.summarizer) {
    throw new ConfigError(
      'memory.compaction.summarizer is required: a model, or a profile name, to write summaries.',
    );
  }
  const backend = options.store ?? defaultBackend(store);
  if (embedder) checkStoredEmbedding(backend, embedder);
  return {
    backend,
    embedder,
    recall: recall
      ? {
          topK,
          minSimilarity: recall.minSimilarity ?? 0.3,
          scope: recall.scope ?? 'user',
          agents: recall.agents,
          timeoutMs: recall.timeoutMs ?? 5000,
        }
      : undefined,
    working:
      options.working === undefined || options.working === false
        ? undefined
        : { schema: options.working === true ? undefined : options.working.schema },
    compaction,
  };
}

function embedderOfProfile(name: string, profiles: ProfileRegistry | undefined): Embedder {
  if (!profiles) {
    throw new ConfigError(
      `memory.embedder names profile "${name}" but no profiles were given: pass memory: { embedder: "${name}", profiles: await loadProfiles(...) }, or an Embedder object.`,
    );
  }
  return profileEmbedder(profiles.get(name), { name });
}

/** A backend that can say synchronously which embedder its vectors are of. */
interface SyncEmbedding {
  embeddingSync(): { model: string; dimensions: number } | null;
}

/** Fails when the stored vectors are of another embedder (checked at start-up where possible). */
export function checkStoredEmbedding(backend: MemoryBackend, embedder: Embedder): void {
  const sync = backend as Partial<SyncEmbedding>;
  const stored = typeof sync.embeddingSync === 'function' ? sync.embeddingSync() : null;
  assertSameEmbedding(stored, embedder);
}

/** Throws when `stored` differs from the embedder's model or size. */
export function assertSameEmbedding(
  stored: { model: string; dimensions: number } | null,
  embedder: Embedder,
): void {
  const model = embedderModel(embedder);
  if (!stored || (stored.model === model && stored.dimensions === embedder.dimensions)) return;
  throw new ConfigError(
    `memory: the stored vectors are of ${stored.model} (${stored.dimensions} numbers) but the embedder is ${model} (${embedder.dimensions}). ` +
      'Re-embed them (colloquy memory reembed --user ID, or reembedMemory()), or configure the old embedder again.',
  );
}
