/**
 * {@link CallbackStore}: bring your own persistence with two callbacks, `load` and `save`, that
 * read and write a whole {@link SerializedThread} (the seed-000 load/save design).
 * @module
 */
import { z } from 'zod';
import { ColloquyError, ConfigError, SerializationError, StoreError } from '../errors.js';
import type { ThreadItem } from './item.js';
import type { StoreCapabilities } from './capabilities.js';
import { jsonCopy } from './common.js';
import { WholeThreadStore } from './wholeThread.js';

/**
 * A whole thread as plain JSON: what {@link CallbackStore} hands to `save` and expects from
 * `load`, and the content of a {@link JsonFileStore} thread file.
 *
 * Changelog of `schemaVersion`: 1 — first version.
 */
export interface SerializedThread {
  schemaVersion: 1;
  threadId: string;
  chatId: string | null;
  /** Always `items.length`. */
  version: number;
  metadata: Record<string, unknown>;
  items: ThreadItem[];
  forkedFrom: { threadId: string; version: number } | null;
  createdAt: string;
  updatedAt: string;
}

const serializedThreadSchema = z
  .object({
    schemaVersion: z.literal(1),
    threadId: z.string(),
    chatId: z.string().nullable(),
    version: z.number().int().nonnegative(),
    metadata: z.record(z.string(), z.unknown()),
    items: z.array(z.looseObject({ id: z.string(), item: z.looseObject({}) })),
    forkedFrom: z
      .object({ threadId: z.string(), version: z.number().int().nonnegative() })
      .nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .refine((t) => t.version === t.items.length, { message: 'version must equal items.length' });

/** Checks a value read from storage; throws `SerializationError` naming `source` when it is malformed. */
export function parseSerializedThread(
  value: unknown,
  source: string,
  threadId?: string,
): SerializedThread {
  const result = serializedThreadSchema.safeParse(value);
  if (!result.success) {
    throw new SerializationError(
      `${source}: not a valid serialized thread (schemaVersion 1): ${z.prettifyError(result.error)}. ` +
        'Fix or remove the stored thread; it must be what a store saved.',
      { cause: result.error },
    );
  }
  if (threadId !== undefined && result.data.threadId !== threadId) {
    throw new SerializationError(
      `${source}: holds thread "${result.data.threadId}", but "${threadId}" was asked for. Return the thread with the requested id.`,
    );
  }
  return value as SerializedThread;
}

/** Options of {@link CallbackStore}. */
export interface CallbackStoreOptions {
  /** Loads a whole thread, or `null` when there is none. */
  load: (threadId: string) => Promise<SerializedThread | null> | SerializedThread | null;
  /** Saves a whole thread, replacing any earlier save; must be atomic for crash safety. */
  save: (thread: SerializedThread) => Promise<void> | void;
  /** Removes a thread. Without it, deletes are remembered only by this store instance. */
  remove?: (threadId: string) => Promise<void> | void;
  /** Every stored thread id. Without it, `listThreads` sees only threads this instance loaded or saved. */
  list?: () => Promise<string[]> | string[];
}

/**
 * A thread store over user callbacks. Limits: version checks are atomic only within one process
 * (an in-process lock per thread); forks and rollbacks copy items; checkpoints live in memory; without
 * `list`/`remove` callbacks, listing and deletes cover only what this instance has seen.
 *
 * @example
 * ```ts
 * const db = new Map<string, string>();
 * const store = new CallbackStore({
 *   load: (id) => (db.has(id) ? JSON.parse(db.get(id)!) : null),
 *   save: (thread) => void db.set(thread.threadId, JSON.stringify(thread)),
 * });
 * ```
 */
export class CallbackStore extends WholeThreadStore {
  readonly kind = 'callback';
  readonly capabilities: StoreCapabilities = {
    leases: false,
    appendMany: false,
    traces: false,
    crossProcess: false,
  };
  readonly #options: CallbackStoreOptions;
  readonly #known = new Set<string>();
  readonly #deleted = new Set<string>();

  constructor(options: CallbackStoreOptions) {
    super();
    for (const name of ['load', 'save', 'remove', 'list'] as const) {
      const value = options?.[name];
      const required = name === 'load' || name === 'save';
      if ((required || value !== undefined) && typeof value !== 'function') {
        throw new ConfigError(
          `CallbackStore: "${name}" must be a function (got ${value === null ? 'null' : typeof value}). ` +
            `Pass ${name}: ${name === 'save' ? 'async (thread) => { … }' : 'async (threadId) => …'}.`,
        );
      }
    }
    this.#options = options;
  }

  protected async loadThread(threadId: string): Promise<SerializedThread | null> {
    if (this.#deleted.has(threadId)) return null;
    const loaded = await callback('load', threadId, () => this.#options.load(threadId));
    if (loaded === null || loaded === undefined) return null;
    this.#known.add(threadId);
    return jsonCopy(parseSerializedThread(loaded, `CallbackStore load("${threadId}")`, threadId));
  }

  protected async saveThread(thread: SerializedThread): Promise<void> {
    const copy = jsonCopy(thread);
    await callback('save', thread.threadId, () => this.#options.save(copy));
    this.#deleted.delete(thread.threadId);
    this.#known.add(thread.threadId);
  }

  protected async deleteStoredThread(threadId: string): Promise<void> {
    const remove = this.#options.remove;
    if (remove) await callback('remove', threadId, () => remove(threadId));
    else this.#deleted.add(threadId);
    this.#known.delete(threadId);
  }

  protected async loadAllThreads(): Promise<SerializedThread[]> {
    const list = this.#options.list;
    const ids = list ? await callback('list', '*', () => list()) : [...this.#known];
    const loaded = await Promise.all(ids.map((id) => this.loadThread(id)));
    return loaded.filter((t): t is SerializedThread => t !== null);
  }

  /** Checkpoints live in memory (the base's default area): the callbacks carry threads only. */
  async close(): Promise<void> {
    this.clearCheckpoints();
  }
}

/** Runs a user callback; its own failure becomes a {@link StoreError} naming the callback. */
async function callback<T>(name: string, threadId: string, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ColloquyError) throw error;
    throw new StoreError(
      `CallbackStore ${name}("${threadId}") failed: ${(error as Error)?.message ?? String(error)}. ` +
        `Fix the ${name} callback or the storage behind it.`,
      { cause: error },
    );
  }
}
