/**
 * {@link JsonFileStore}: a directory of JSON Lines files, one per thread (see `jsonLines.ts` for
 * the format). An append adds one verified line; forks, rollbacks and compactions replace a whole
 * file atomically. Thread files of the old format (`<id>.json`, schemaVersion 1) are read as they
 * are and migrated on their first write.
 * @module
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { ConflictError } from '../errors.js';
import type { SerializedThread } from './callback.js';
import type { StoreCapabilities } from './capabilities.js';
import { jsonCopy } from './common.js';
import { JsonFileCheckpoints } from './jsonFileCheckpoints.js';
import {
  encodeFileName,
  fileIo,
  ifMissing,
  jsonFileNames,
  parseLegacyThread,
  readBytes,
} from './jsonFileIo.js';
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
import type { CheckpointEntry } from './storeRequests.js';
import type { AppendOptions, ThreadRecord } from './types.js';
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

/** The file name of an id (see `jsonFileIo.ts`), exported here for tools that locate a thread file. */
export { encodeFileName };

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
  /** Leases reach every store object of this process on the same directory (not other processes). */
  readonly capabilities: StoreCapabilities = {
    leases: true,
    appendMany: false,
    traces: false,
    crossProcess: false,
  };
  readonly #threadsDir: string;
  readonly #checkpointsDir: string;
  readonly #fsync: boolean;
  readonly #heads: LRUCache<string, Head>;
  readonly #checkpoints: JsonFileCheckpoints;
  #ready: Promise<void> | undefined;

  constructor(options: JsonFileStoreOptions) {
    super();
    const opts = { ...DEFAULTS, ...options };
    this.#threadsDir = path.join(opts.dir, 'threads');
    this.#checkpointsDir = path.join(opts.dir, 'checkpoints');
    this.#fsync = opts.fsync;
    this.#heads = new LRUCache({ max: opts.cachedThreads });
    this.leases = leasesInProcess(`jsonfile:${path.resolve(opts.dir)}`);
    this.#checkpoints = new JsonFileCheckpoints({
      dir: this.#checkpointsDir,
      fsync: this.#fsync,
      ensureDirs: () => this.#dirs(),
      withLock: (key, fn) => this.withLock(key, fn),
    });
  }

  protected override async readRecord(threadId: string): Promise<ThreadRecord | null> {
    const head = await this.#head(threadId, `load thread "${threadId}"`);
    return head ? jsonCopy(head.record) : null;
  }

  protected override async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    const copies = bodies.map((body) => JSON.parse(body) as ThreadItem);
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

  protected override async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    const copy = JSON.parse(metadata) as Record<string, unknown>;
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
    await fileIo(operation, async () => {
      await this.#dirs();
      await replaceVerified(this.#logFile(thread.threadId), serializeLog(thread), {
        fsync: this.#fsync,
      });
      await fs.rm(this.#legacyFile(thread.threadId), { force: true });
    });
  }

  protected async deleteStoredThread(threadId: string): Promise<void> {
    this.#heads.delete(threadId);
    await fileIo(`delete thread "${threadId}"`, async () => {
      await fs.rm(this.#logFile(threadId), { force: true });
      await fs.rm(this.#legacyFile(threadId), { force: true });
    });
  }

  protected async loadAllThreads(): Promise<SerializedThread[]> {
    const names = await jsonFileNames(this.#threadsDir);
    const logs = new Set(names.filter((n) => n.endsWith('.jsonl')));
    const out: SerializedThread[] = [];
    for (const name of names) {
      const file = path.join(this.#threadsDir, name);
      if (name.endsWith('.jsonl')) {
        const bytes = await readBytes(file, 'list threads');
        const log = bytes && parseLog(bytes, file);
        if (log) out.push(log.thread);
      } else if (name.endsWith('.json') && !logs.has(`${name}l`)) {
        const bytes = await readBytes(file, 'list threads');
        if (bytes) out.push(parseLegacyThread(bytes, file));
      }
    }
    return out;
  }

  protected override saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    return this.#checkpoints.put(entry);
  }

  protected override loadCheckpoints(chatId: string): Promise<string[]> {
    return this.#checkpoints.list(chatId);
  }

  protected override loadCheckpoint(checkpointId: string): Promise<string | null> {
    return this.#checkpoints.get(checkpointId);
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
    const stat = await fileIo(operation, () =>
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
    const bytes = await readBytes(file, operation);
    if (bytes) return parseLog(bytes, file, threadId);
    const legacy = this.#legacyFile(threadId);
    const old = await readBytes(legacy, operation);
    if (!old) return null;
    const thread = parseLegacyThread(old, legacy, threadId);
    return { thread, validBytes: -1, deadBytes: 0, metadataBytes: 0 };
  }

  /** Appends a line to an existing thread (migrating a legacy file first); updates the head. */
  async #appendLine(threadId: string, head: Head, line: Buffer, operation: string): Promise<void> {
    const file = this.#logFile(threadId);
    await fileIo(operation, async () => {
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
    await fileIo(operation, async () => {
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
}
