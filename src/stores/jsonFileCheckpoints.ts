/**
 * The checkpoints of {@link JsonFileStore}: one JSON file per checkpoint under `checkpoints/`,
 * holding `{ seq, checkpoint }` (`seq` keeps insertion order for equal `createdAt` times). The store
 * checks checkpoints before they get here.
 * @module
 */
import path from 'node:path';
import { encodeFileName, fileIo, jsonFileNames, parseJsonFile, readBytes } from './jsonFileIo.js';
import { replaceVerified } from './safeWrite.js';
import type { CheckpointEntry } from './storeRequests.js';
import type { Checkpoint } from './types.js';

/** What {@link JsonFileCheckpoints} needs from its store. */
export interface JsonFileCheckpointsOptions {
  /** The `checkpoints/` directory. */
  dir: string;
  /** fsync each write. */
  fsync: boolean;
  /** Creates the store's directories (once). */
  ensureDirs: () => Promise<void>;
  /** Runs `fn` holding the store's in-process lock on `key`. */
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
}

/** Reads and writes checkpoint files. */
export class JsonFileCheckpoints {
  readonly #options: JsonFileCheckpointsOptions;
  #seq = 0;

  constructor(options: JsonFileCheckpointsOptions) {
    this.#options = options;
  }

  /** Saves a new checkpoint (checked by the store); false when its id is taken. */
  async put(entry: CheckpointEntry): Promise<boolean> {
    const file = this.#file(entry.checkpointId);
    return this.#options.withLock(`checkpoint:${entry.checkpointId}`, async () => {
      if ((await readBytes(file, 'put checkpoint')) !== null) return false;
      // seq breaks createdAt ties in insertion order (monotonic while the clock does not go back).
      this.#seq = Math.max(this.#seq + 1, Date.now() * 1000);
      const text = `{"seq":${this.#seq},"checkpoint":${entry.body}}`;
      await fileIo('put checkpoint', async () => {
        await this.#options.ensureDirs();
        await replaceVerified(file, Buffer.from(text, 'utf8'), { fsync: this.#options.fsync });
      });
      return true;
    });
  }

  /** The checkpoints of a chat as JSON texts, in insertion order. */
  async list(chatId: string): Promise<string[]> {
    const all: { seq: number; checkpoint: Checkpoint }[] = [];
    for (const name of await jsonFileNames(this.#options.dir)) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(this.#options.dir, name);
      const bytes = await readBytes(file, 'list checkpoints');
      if (bytes) all.push(parseJsonFile(bytes, file) as { seq: number; checkpoint: Checkpoint });
    }
    return all
      .filter((c) => c.checkpoint.chatId === chatId)
      .sort((a, b) => a.seq - b.seq)
      .map((c) => JSON.stringify(c.checkpoint));
  }

  /** One checkpoint's JSON text, or null. */
  async get(checkpointId: string): Promise<string | null> {
    const file = this.#file(checkpointId);
    const bytes = await readBytes(file, 'get checkpoint');
    return bytes === null
      ? null
      : JSON.stringify((parseJsonFile(bytes, file) as { checkpoint: Checkpoint }).checkpoint);
  }

  #file(checkpointId: string): string {
    return path.join(this.#options.dir, encodeFileName(checkpointId));
  }
}
