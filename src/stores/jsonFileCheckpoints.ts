/**
 * The checkpoints of {@link JsonFileStore}: one JSON file per checkpoint under `checkpoints/`,
 * holding `{ seq, checkpoint }` (`seq` breaks ties between equal `createdAt` times).
 * @module
 */
import path from 'node:path';
import { checkpointExists, checkpointTime } from './common.js';
import { checkIds } from './ids.js';
import { encodeFileName, fileIo, jsonFileNames, parseJsonFile, readBytes } from './jsonFileIo.js';
import { replaceVerified } from './safeWrite.js';
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

  /** Saves a new checkpoint; an existing id is an error. */
  async put(checkpoint: Checkpoint): Promise<void> {
    checkIds(
      'putCheckpoint',
      checkpoint.checkpointId,
      checkpoint.chatId,
      ...Object.keys(checkpoint.threads ?? {}),
    );
    checkpointTime(checkpoint);
    const file = this.#file(checkpoint.checkpointId);
    await this.#options.withLock(`checkpoint:${checkpoint.checkpointId}`, async () => {
      if ((await readBytes(file, 'put checkpoint')) !== null)
        throw checkpointExists(checkpoint.checkpointId);
      // seq breaks createdAt ties in insertion order (monotonic while the clock does not go back).
      this.#seq = Math.max(this.#seq + 1, Date.now() * 1000);
      const text = JSON.stringify({ seq: this.#seq, checkpoint });
      await fileIo('put checkpoint', async () => {
        await this.#options.ensureDirs();
        await replaceVerified(file, Buffer.from(text, 'utf8'), { fsync: this.#options.fsync });
      });
    });
  }

  /** The checkpoints of a chat, oldest first. */
  async list(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    const all: { seq: number; checkpoint: Checkpoint }[] = [];
    for (const name of await jsonFileNames(this.#options.dir)) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(this.#options.dir, name);
      const bytes = await readBytes(file, 'list checkpoints');
      if (bytes) all.push(parseJsonFile(bytes, file) as { seq: number; checkpoint: Checkpoint });
    }
    return all
      .filter((c) => c.checkpoint.chatId === chatId)
      .sort(
        (a, b) =>
          Date.parse(a.checkpoint.createdAt) - Date.parse(b.checkpoint.createdAt) || a.seq - b.seq,
      )
      .map((c) => c.checkpoint);
  }

  /** One checkpoint, or null. */
  async get(checkpointId: string): Promise<Checkpoint | null> {
    checkIds('getCheckpoint', checkpointId);
    const file = this.#file(checkpointId);
    const bytes = await readBytes(file, 'get checkpoint');
    return bytes === null
      ? null
      : (parseJsonFile(bytes, file) as { checkpoint: Checkpoint }).checkpoint;
  }

  #file(checkpointId: string): string {
    return path.join(this.#options.dir, encodeFileName(checkpointId));
  }
}
