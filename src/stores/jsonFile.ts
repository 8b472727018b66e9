/**
 * {@link JsonFileStore}: one JSON file per thread, written atomically (write a temp file, fsync,
 * rename). Forks and resets COPY items into the new file; appends rewrite the thread's file.
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ColloquyError, SerializationError } from '../errors.js';
import { parseSerializedThread, type SerializedThread } from './callback.js';
import { checkpointExists, checkpointTime, storeFailure } from './common.js';
import { leasesInProcess, type MemoryLeases } from './lease.js';
import type { Checkpoint } from './types.js';
import { WholeThreadStore } from './wholeThread.js';

/** Options of {@link JsonFileStore}. */
export interface JsonFileStoreOptions {
  /** Directory holding `threads/` and `checkpoints/`; created when missing. */
  dir: string;
  /** fsync each file before the rename (default `true`); `false` survives a process crash but not power loss. */
  fsync?: boolean;
}

const DEFAULTS = { fsync: true } as const;

/**
 * A file name for an id that is safe on every OS and case-insensitive file system: lowercase
 * letters, digits, `-` and `_` are kept; every other UTF-8 byte becomes `%XX`. Ids whose encoding
 * is longer than 150 characters are shortened with a SHA-256 suffix (the file keeps the full id).
 */
export function encodeFileName(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[a-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out.length > 150)
    out = `${out.slice(0, 100)}%%${createHash('sha256').update(id).digest('hex')}`;
  return `${out}.json`;
}

/**
 * Thread store in a directory of JSON files. Every write replaces a whole file atomically, so a
 * crash leaves each thread either before or after an append. Costs: an append rewrites the thread
 * (O(thread)); `listThreads` reads every file. Use it for development and small deployments;
 * version checks are atomic within one process only.
 *
 * @example
 * ```ts
 * const store = new JsonFileStore({ dir: '.colloquy/threads' });
 * await store.append('main', [{ id: 'm1', item: { role: 'user', content: 'hi' } }], { expectedVersion: 0 });
 * ```
 */
export class JsonFileStore extends WholeThreadStore {
  readonly kind = 'jsonfile';
  readonly #threadsDir: string;
  readonly #checkpointsDir: string;
  readonly #fsync: boolean;
  #ready: Promise<void> | undefined;
  #seq = 0;

  constructor(options: JsonFileStoreOptions) {
    super();
    const opts = { ...DEFAULTS, ...options };
    this.#threadsDir = path.join(opts.dir, 'threads');
    this.#checkpointsDir = path.join(opts.dir, 'checkpoints');
    this.#fsync = opts.fsync;
    this.leases = leasesInProcess(`jsonfile:${path.resolve(opts.dir)}`);
  }

  /** Leases shared by the store objects of this process that open the same directory. */
  readonly leases: MemoryLeases;

  protected async loadThread(threadId: string): Promise<SerializedThread | null> {
    const file = path.join(this.#threadsDir, encodeFileName(threadId));
    const text = await this.#read(file, `load thread "${threadId}"`);
    return text === null
      ? null
      : parseSerializedThread(parseJson(text, file), `JsonFileStore "${file}"`, threadId);
  }

  protected async saveThread(thread: SerializedThread): Promise<void> {
    await this.#write(
      path.join(this.#threadsDir, encodeFileName(thread.threadId)),
      JSON.stringify(thread),
      `save thread "${thread.threadId}"`,
    );
  }

  protected async removeThread(threadId: string): Promise<void> {
    const file = path.join(this.#threadsDir, encodeFileName(threadId));
    await this.#io(`delete thread "${threadId}"`, () => fs.rm(file, { force: true }));
  }

  protected async loadAllThreads(): Promise<SerializedThread[]> {
    const out: SerializedThread[] = [];
    for (const file of await this.#jsonFiles(this.#threadsDir)) {
      const text = await this.#read(file, 'list threads');
      if (text !== null)
        out.push(parseSerializedThread(parseJson(text, file), `JsonFileStore "${file}"`));
    }
    return out;
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    checkpointTime(checkpoint);
    const file = path.join(this.#checkpointsDir, encodeFileName(checkpoint.checkpointId));
    await this.withLock(`checkpoint:${checkpoint.checkpointId}`, async () => {
      if ((await this.#read(file, 'put checkpoint')) !== null)
        throw checkpointExists(checkpoint.checkpointId);
      // seq breaks createdAt ties in insertion order (monotonic while the clock does not go back).
      this.#seq = Math.max(this.#seq + 1, Date.now() * 1000);
      await this.#write(file, JSON.stringify({ seq: this.#seq, checkpoint }), 'put checkpoint');
    });
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    const all: { seq: number; checkpoint: Checkpoint }[] = [];
    for (const file of await this.#jsonFiles(this.#checkpointsDir)) {
      const text = await this.#read(file, 'list checkpoints');
      if (text !== null) all.push(parseJson(text, file) as { seq: number; checkpoint: Checkpoint });
    }
    return all
      .filter((c) => c.checkpoint.chatId === chatId)
      .sort(
        (a, b) =>
          Date.parse(a.checkpoint.createdAt) - Date.parse(b.checkpoint.createdAt) || a.seq - b.seq,
      )
      .map((c) => c.checkpoint);
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    const file = path.join(this.#checkpointsDir, encodeFileName(checkpointId));
    const text = await this.#read(file, 'get checkpoint');
    return text === null ? null : (parseJson(text, file) as { checkpoint: Checkpoint }).checkpoint;
  }

  async close(): Promise<void> {}

  async #jsonFiles(dir: string): Promise<string[]> {
    // Skips write-file-atomic's leftover temp files (`x.json.<hash>`) after a crash.
    const names = await this.#io(`list "${dir}"`, () =>
      fs
        .readdir(dir)
        .catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e))),
    );
    return names
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => path.join(dir, n));
  }

  async #read(file: string, operation: string): Promise<string | null> {
    return this.#io(operation, () =>
      fs
        .readFile(file, 'utf8')
        .catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e))),
    );
  }

  async #write(file: string, text: string, operation: string): Promise<void> {
    this.#ready ??= Promise.all([
      fs.mkdir(this.#threadsDir, { recursive: true }),
      fs.mkdir(this.#checkpointsDir, { recursive: true }),
    ]).then(() => undefined);
    await this.#io(operation, async () => {
      await this.#ready;
      await writeFileAtomic(file, text, { fsync: this.#fsync });
    });
  }

  async #io<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ColloquyError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw storeFailure(
        'jsonfile',
        operation,
        error,
        code === 'EBUSY' || code === 'EAGAIN' || code === 'EMFILE',
      );
    }
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SerializationError(
      `JsonFileStore: "${file}" is not valid JSON (${(error as Error).message}). Restore or remove the file.`,
      { cause: error },
    );
  }
}
