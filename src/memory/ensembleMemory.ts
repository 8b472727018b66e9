/**
 * Memory for ensembles (`memory:` in the ensemble YAML): LLM agents of a run made for a user
 * (`runEnsemble(…, { userId })`) get the user's earlier runs of this ensemble as a recall block
 * and a working-memory document in their instructions, with the `update_working_memory` tool.
 * A run's task and its LLM agents' answers are indexed once the run's finished state is saved,
 * so vectors never describe turns that were not saved.
 * @module
 */
import type { AgentInputItem, Tool } from '@openai/agents-core';
import type { EnsembleMemoryConfig } from './ensembleMemorySchema.js';
import { ConfigError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';
import type { ThreadStore } from '../stores/types.js';
import { embedderModel, profileEmbedder, type Embedder } from './embedder.js';
import { HashedEmbedder } from './hashedEmbedder.js';
import { defaultBackend } from './options.js';
import { recallBlock, withTimeout, type MemoryOwner } from './recall.js';
import type { MemoryBackend, MemoryEntry, MemoryHit } from './types.js';
import { workingInstructions, workingMemoryTool } from './working.js';

export { ensembleMemorySchema } from './ensembleMemorySchema.js';
export type { EnsembleMemoryConfig } from './ensembleMemorySchema.js';

/** A runtime's backends beside thread stores, weakly keyed by the store. */
const BACKENDS = defineRuntimeSlot(
  'memory.ensembleBackends',
  () => new WeakMap<ThreadStore, MemoryBackend>(),
);

/**
 * The memory backend of ensembles run on `store` in `runtime` (default: the default runtime):
 * one per store, so runs on one store share their memory.
 */
export function ensembleBackend(
  store: ThreadStore,
  runtime: ColloquyRuntime = defaultRuntime(),
): MemoryBackend {
  const backends = runtime.use(BACKENDS);
  let backend = backends.get(store);
  if (!backend) backends.set(store, (backend = defaultBackend(store)));
  return backend;
}

/** The embedder `name` designates: `hashed[:N]`, or a model profile. */
export function namedEmbedder(name: string, profiles: ProfileRegistry | undefined): Embedder {
  const hashed = /^hashed(?::(\d+))?$/.exec(name);
  if (hashed) return new HashedEmbedder({ dimensions: Number(hashed[1] ?? 256) });
  if (!profiles) {
    throw new ConfigError(
      `memory.embedder names profile "${name}", but the run has no profiles: pass profiles to runEnsemble, or use hashed[:DIMENSIONS].`,
    );
  }
  return profileEmbedder(profiles.get(name), { name });
}

/** What an LLM agent's turn gets from memory. */
export interface TurnMemory {
  /** The working-memory block to add to the instructions. */
  instructions?: string;
  tools: Tool<any>[];
  /** The recall block to put before the message (model input only). */
  recall?: AgentInputItem;
}

/** The memory of one run of an ensemble for one user. */
export class RunMemory {
  readonly #owner: MemoryOwner;
  readonly #pending: Array<Omit<MemoryEntry, 'vector'>> = [];

  constructor(
    readonly backend: MemoryBackend,
    readonly config: EnsembleMemoryConfig,
    readonly embedder: Embedder | undefined,
    ensemble: string,
    userId: string,
    readonly runId: string,
  ) {
    this.#owner = { agency: `ensemble:${ensemble}`, userId };
    if (config.recall && !embedder) {
      throw new ConfigError(
        `Ensemble "${ensemble}": memory.recall needs memory.embedder (a profile name, or hashed for offline use).`,
      );
    }
  }

  /** What the LLM agent `agent` gets for a turn whose message is `text`. */
  async forTurn(text: string): Promise<TurnMemory> {
    const turn: TurnMemory = { tools: [] };
    if (this.config.working) {
      const document = await this.backend.getWorking(this.#owner.agency, this.#owner.userId);
      turn.instructions = workingInstructions(document?.content, false);
      turn.tools.push(workingMemoryTool(this.backend, this.#owner, undefined));
    }
    const recalled = await this.#recall(text);
    if (recalled.length > 0) turn.recall = recallBlock(recalled);
    return turn;
  }

  async #recall(text: string): Promise<MemoryHit[]> {
    const recall = this.config.recall;
    if (!recall || !this.embedder || !text.trim()) return [];
    const { top_k: topK, min_similarity: min } =
      recall === true ? { top_k: 5, min_similarity: 0.3 } : recall;
    try {
      const [query] = await withTimeout(this.embedder.embed([text]), 5000, 'memory recall');
      const hits = await this.backend.search(query!, this.#owner, topK * 4);
      const chosen: MemoryHit[] = [];
      for (const hit of hits) {
        if (chosen.length >= topK || hit.similarity < min) break;
        if (hit.chatId === this.runId || chosen.some((c) => c.text === hit.text)) continue;
        chosen.push(hit);
      }
      return chosen;
    } catch (error) {
      getDefaultLogger().warn(
        { err: error, runId: this.runId, userId: this.#owner.userId },
        `${this.#owner.agency}: memory recall failed (${(error as Error).message}); the agent runs without recall`,
      );
      return [];
    }
  }

  /** Notes a turn of `agent` (its items' ids) to index when the run is saved. */
  note(agent: string, items: Array<{ id: string; role: 'user' | 'assistant'; text: string }>) {
    if (!this.config.recall || !this.embedder) return;
    const createdAt = new Date().toISOString();
    for (const [i, item] of items.entries()) {
      if (!item.text.trim() || this.#pending.some((p) => p.text === item.text)) continue;
      this.#pending.push({
        itemId: item.id,
        agency: this.#owner.agency,
        userId: this.#owner.userId,
        chatId: this.runId,
        threadId: `${this.runId}::${agent}`,
        position: i,
        role: item.role,
        agent,
        text: item.text,
        model: embedderModel(this.embedder),
        dimensions: this.embedder.dimensions,
        createdAt,
      });
    }
  }

  /** Indexes the noted turns (call after the run's state is saved). Failures are logged. */
  async flush(): Promise<number> {
    const entries = this.#pending.splice(0);
    if (entries.length === 0 || !this.embedder) return 0;
    try {
      const vectors = await this.embedder.embed(entries.map((e) => e.text));
      await this.backend.addEntries(
        entries.map((e, i) => ({ ...e, vector: vectors[i]! })),
        {},
      );
      return entries.length;
    } catch (error) {
      getDefaultLogger().warn(
        { err: error, runId: this.runId, userId: this.#owner.userId },
        `${this.#owner.agency}: indexing run ${this.runId} for recall failed (${(error as Error).message})`,
      );
      return 0;
    }
  }
}

/** The memory of a run, or undefined when the ensemble has none or the run names no user. */
export function runMemory(
  ensemble: { name: string; memory?: EnsembleMemoryConfig },
  run: {
    store: ThreadStore;
    runId: string;
    userId?: string;
    profiles?: ProfileRegistry;
    runtime?: ColloquyRuntime;
  },
): RunMemory | undefined {
  const config = ensemble.memory;
  if (!config || run.userId === undefined) return undefined;
  const embedder = config.embedder ? namedEmbedder(config.embedder, run.profiles) : undefined;
  return new RunMemory(
    ensembleBackend(run.store, run.runtime),
    config,
    embedder,
    ensemble.name,
    run.userId,
    run.runId,
  );
}
