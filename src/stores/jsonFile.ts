/**
 * {@link JsonFileStore}: a directory of JSON Lines files, one per thread (see `jsonLines.ts` for
 * the format). An append adds one verified line; forks, resets and compactions replace a whole
 * file atomically. Thread files of the old format (`<id>.json`, schemaVersion 1) are read as they
 * are and migrated on their first write.
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { ColloquyError, ConflictError, SerializationError } from '../errors.js';
import { parseSerializedThread, type SerializedThread } from './callback.js';
import {
  checkpointExists,
  checkpointTime,
  jsonCopy,
  serializeItem,
  storeFailure,
} from './common.js';
import { checkIds } from './ids.js';
import { leasesInProcess, type MemoryLeases } from './lease.js';
import type { ThreadItem } from './item.js';
import {
  appendLine,
  headerLine,
  metadataLine,
  parseLog,
  serializeLog,
  type ThreadLog,
} from './jsonLines.js';
import { appendVerified, replaceVerified } from './safeWrite.js';
import type { AppendOptions, Checkpoint, ThreadRecord } from './types.js';
import { recordOf, WholeThreadStore } from './wholeThread.js';

/** Options of {@link JsonFileStore}. */
export interface JsonFileStoreOptions {
  /** Directory holding `threads/` and `checkpoints/`; created when missing. */
  dir: string;
  /** fsync each write before acknowledging it (default `true`); `false` survives a process crash but not power loss. */
  fsync?: boolean;
  /** Threads whose head (record and file length) is kept in memory for flat appends (default 1000). */
  cachedThreads?: number;
}

const DEFAULTS = { fsync: true, cachedThreads: 1000 } as const;
/** Superseded metadata lines are compacted away once they pass this size and the live data. */
const COMPACT_MIN_BYTES = 1024 * 1024;

/**
 * A file name for an id that is safe on every OS and case-insensitive file system: lowercase
 * letters, digits, `-` and `_` are kept; every other UTF-8 byte becomes `%XX`. Ids whose encoding
 * is longer than 150 characters are shortened with a SHA-256 suffix (the file keeps the full id).
 * Thread logs add an `l` (`.jsonl`).
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

/** What an append needs to know about a thread without reading its items. */
interface Head {
  record: ThreadRecord;
  validBytes: number;
  deadBytes: number;
  metadataBytes: number;
  /** The file's size and inode when this head was taken: a change means another writer. */
  size: number;
  ino: number;
}

/**
 * Thread store in a directory of JSON Lines files. An append writes one line, verified (a short
 * write is an error) and fsynced before it is acknowledged; a failed append is cut back, so the
 * thread reads as before it, and the store works again once the cause (a full disk) is gone.
 * Appends cost the same at any thread length; reads and `listThreads` read whole files. Use it
 * for development and small deployments; version checks are atomic within one process only.
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
  readonly #heads: LRUCache<string, Head>;
  #ready: Promise<void> | undefined;
  #seq = 0;

  constructor(options: JsonFileStoreOptions) {
    super();
    const opts = { ...DEFAULTS, ...options };
    this.#threadsDir = path.join(opts.dir, 'threads');
    this.#checkpointsDir = path.join(opts.dir, 'checkpoints');
    this.#fsync = opts.fsync;
    this.#heads = new LRUCache({ max: opts.cachedThreads });
    this.leases = leasesInProcess(`jsonfile:${path.resolve(opts.dir)}`);
  }

  override async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkIds('getThread', threadId);
    const head = await this.#head(threadId, `load thread "${threadId}"`);
    return head ? jsonCopy(head.record) : null;
  }

  override async append(
    threadId: string,
    items: ThreadItem[],
    options: AppendOptions,
  ): Promise<number> {
    checkIds('append', threadId, options.chatId);
    const copies = items.map((item) => JSON.parse(serializeItem(threadId, item)) as ThreadItem);
    return this.withLock(threadId, async () => {
      const operation = `append to thread "${threadId}"`;
      const head = await this.#head(threadId, operation);
      const current = head?.record.version ?? 0;
      if (current !== options.expectedVersion)
        throw new ConflictError(threadId, options.expectedVersion, current);
      if (copies.length === 0) return current;
      const at = new Date().toISOString();
      if (head) {
        await this.#appendLine(threadId, head, appendLine(copies, at), operation);
        head.record.version += copies.length;
        head.record.updatedAt = at;
        return head.record.version;
      }
      const blank = this.blankThread(threadId, options.chatId ?? null, {});
      const data = Buffer.concat([headerLine(blank), appendLine(copies, at)]);
      await this.#create(threadId, data, operation);
      return copies.length;
    });
  }

  override async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    const copy = jsonCopy(metadata);
    await this.withLock(threadId, async () => {
      const operation = `set metadata of thread "${threadId}"`;
      const head = await this.#head(threadId, operation);
      if (!head) {
        await this.#create(
          threadId,
          headerLine(this.blankThread(threadId, chatId ?? null, copy)),
          operation,
        );
        return;
      }
      const at = new Date().toISOString();
      const line = metadataLine(copy, at);
      await this.#appendLine(threadId, head, line, operation);
      head.deadBytes += head.metadataBytes;
      head.metadataBytes = line.length;
      head.record.metadata = copy;
      head.record.updatedAt = at;
      if (head.deadBytes > COMPACT_MIN_BYTES && head.deadBytes > head.validBytes - head.deadBytes) {
        const log = await this.#readLog(threadId, operation);
        if (log) await this.saveThread(log.thread);
      }
    });
  }

  /** Leases shared by the store objects of this process that open the same directory. */
  readonly leases: MemoryLeases;

  protected async loadThread(threadId: string): Promise<SerializedThread | null> {
    const log = await this.#readLog(threadId, `load thread "${threadId}"`);
    return log?.thread ?? null;
  }

  protected async saveThread(thread: SerializedThread): Promise<void> {
    const operation = `save thread "${thread.threadId}"`;
    this.#heads.delete(thread.threadId);
    await this.#io(operation, async () => {
      await this.#dirs();
      await replaceVerified(this.#logFile(thread.threadId), serializeLog(thread), {
        fsync: this.#fsync,
      });
      await fs.rm(this.#legacyFile(thread.threadId), { force: true });
    });
  }

  protected async removeThread(threadId: string): Promise<void> {
    this.#heads.delete(threadId);
    await this.#io(`delete thread "${threadId}"`, async () => {
      await fs.rm(this.#logFile(threadId), { force: true });
      await fs.rm(this.#legacyFile(threadId), { force: true });
    });
  }

  protected async loadAllThreads(): Promise<SerializedThread[]> {
    const names = await this.#names(this.#threadsDir);
    const logs = new Set(names.filter((n) => n.endsWith('.jsonl')));
    const out: SerializedThread[] = [];
    for (const name of names) {
      const file = path.join(this.#threadsDir, name);
      if (name.endsWith('.jsonl')) {
        const bytes = await this.#readBytes(file, 'list threads');
        const log = bytes && parseLog(bytes, file);
        if (log) out.push(log.thread);
      } else if (name.endsWith('.json') && !logs.has(`${name}l`)) {
        const bytes = await this.#readBytes(file, 'list threads');
        if (bytes) out.push(parseLegacy(bytes, file));
      }
    }
    return out;
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    checkIds(
      'putCheckpoint',
      checkpoint.checkpointId,
      checkpoint.chatId,
      ...Object.keys(checkpoint.threads ?? {}),
    );
    checkpointTime(checkpoint);
    const file = path.join(this.#checkpointsDir, encodeFileName(checkpoint.checkpointId));
    await this.withLock(`checkpoint:${checkpoint.checkpointId}`, async () => {
      if ((await this.#readBytes(file, 'put checkpoint')) !== null)
        throw checkpointExists(checkpoint.checkpointId);
      // seq breaks createdAt ties in insertion order (monotonic while the clock does not go back).
      this.#seq = Math.max(this.#seq + 1, Date.now() * 1000);
      const text = JSON.stringify({ seq: this.#seq, checkpoint });
      await this.#io('put checkpoint', async () => {
        await this.#dirs();
        await replaceVerified(file, Buffer.from(text, 'utf8'), { fsync: this.#fsync });
      });
    });
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    const all: { seq: number; checkpoint: Checkpoint }[] = [];
    for (const name of await this.#names(this.#checkpointsDir)) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(this.#checkpointsDir, name);
      const bytes = await this.#readBytes(file, 'list checkpoints');
      if (bytes) all.push(parseJson(bytes, file) as { seq: number; checkpoint: Checkpoint });
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
    checkIds('getCheckpoint', checkpointId);
    const file = path.join(this.#checkpointsDir, encodeFileName(checkpointId));
    const bytes = await this.#readBytes(file, 'get checkpoint');
    return bytes === null
      ? null
      : (parseJson(bytes, file) as { checkpoint: Checkpoint }).checkpoint;
  }

  async close(): Promise<void> {
    this.#heads.clear();
  }

  #logFile(threadId: string): string {
    return path.join(this.#threadsDir, `${encodeFileName(threadId)}l`);
  }

  #legacyFile(threadId: string): string {
    return path.join(this.#threadsDir, encodeFileName(threadId));
  }

  /** The thread's head, from the cache while the file is unchanged, else from the file. */
  async #head(threadId: string, operation: string): Promise<Head | null> {
    const cached = this.#heads.get(threadId);
    const stat = await this.#io(operation, () =>
      fs.stat(this.#logFile(threadId)).catch(ifMissing(null)),
    );
    if (cached && stat && stat.size === cached.size && stat.ino === cached.ino) return cached;
    const log = await this.#readLog(threadId, operation);
    if (!log) return null;
    const head: Head = {
      record: recordOf(log.thread),
      validBytes: log.validBytes,
      deadBytes: log.deadBytes,
      metadataBytes: log.metadataBytes,
      size: stat?.size ?? -1, // -1: a legacy file, migrated by the next write
      ino: stat?.ino ?? -1,
    };
    if (stat) this.#heads.set(threadId, head);
    return head;
  }

  /** Reads the thread's log, or its legacy `.json` file; null when neither exists. */
  async #readLog(threadId: string, operation: string): Promise<ThreadLog | null> {
    const file = this.#logFile(threadId);
    const bytes = await this.#readBytes(file, operation);
    if (bytes) return parseLog(bytes, file, threadId);
    const legacy = this.#legacyFile(threadId);
    const old = await this.#readBytes(legacy, operation);
    if (!old) return null;
    const thread = parseLegacy(old, legacy, threadId);
    return { thread, validBytes: -1, deadBytes: 0, metadataBytes: 0 };
  }

  /** Appends a line to an existing thread (migrating a legacy file first); updates the head. */
  async #appendLine(threadId: string, head: Head, line: Buffer, operation: string): Promise<void> {
    const file = this.#logFile(threadId);
    await this.#io(operation, async () => {
      if (head.validBytes < 0) {
        // A legacy thread: write it as a log (atomically), then append as usual.
        const log = await this.#readLog(threadId, operation);
        const data = serializeLog(log!.thread);
        await this.#dirs();
        await replaceVerified(file, data, { fsync: this.#fsync });
        await fs.rm(this.#legacyFile(threadId), { force: true });
        head.validBytes = data.length;
      }
      try {
        head.validBytes = await appendVerified(file, head.validBytes, line, { fsync: this.#fsync });
      } catch (error) {
        this.#heads.delete(threadId);
        throw error;
      }
      const stat = await fs.stat(file);
      Object.assign(head, { size: stat.size, ino: stat.ino });
      this.#heads.set(threadId, head);
    });
  }

  /** Creates a thread's log holding `data` (a header, and maybe a first append). */
  async #create(threadId: string, data: Buffer, operation: string): Promise<void> {
    this.#heads.delete(threadId);
    await this.#io(operation, async () => {
      await this.#dirs();
      await appendVerified(this.#logFile(threadId), 0, data, { fsync: this.#fsync });
    });
  }

  #dirs(): Promise<void> {
    this.#ready ??= Promise.all([
      fs.mkdir(this.#threadsDir, { recursive: true }),
      fs.mkdir(this.#checkpointsDir, { recursive: true }),
    ]).then(
      () => undefined,
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  /** File names in `dir` (sorted; none when it is missing), without temp files. */
  async #names(dir: string): Promise<string[]> {
    const names = await this.#io(`list "${path.basename(dir)}"`, () =>
      fs.readdir(dir).catch(ifMissing([] as string[])),
    );
    // Skips temp files: ours (`.x.jsonl.<hex>.tmp`, ending in .tmp) and write-file-atomic's (`x.json.<hash>`).
    return names.filter((n) => /\.jsonl?$/.test(n)).sort();
  }

  async #readBytes(file: string, operation: string): Promise<Buffer | null> {
    return this.#io(operation, () => fs.readFile(file).catch(ifMissing(null)));
  }

  async #io<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ColloquyError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw storeFailure(
        'jsonfile',
        `${operation} (nothing was written)`,
        error,
        code === 'EBUSY' || code === 'EAGAIN' || code === 'EMFILE',
      );
    }
  }
}

/** A `.catch` handler turning ENOENT into `value`. */
function ifMissing<T>(value: T): (error: NodeJS.ErrnoException) => Promise<T> {
  return (error) => (error.code === 'ENOENT' ? Promise.resolve(value) : Promise.reject(error));
}

function parseJson(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SerializationError(
      `JsonFileStore: "${file}" is not valid JSON (${(error as Error).message}). Restore or remove the file.`,
      { cause: error },
    );
  }
}

/** A thread file of schemaVersion 1 (one JSON document). */
function parseLegacy(bytes: Buffer, file: string, threadId?: string): SerializedThread {
  return parseSerializedThread(parseJson(bytes, file), `JsonFileStore "${file}"`, threadId);
}
