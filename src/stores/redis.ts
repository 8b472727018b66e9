/**
 * A {@link ThreadStore} on Redis (node-redis). Every operation is one Lua script (see
 * `redisScripts.ts`), so appends are atomic with their version check, forks and resets are O(1)
 * (segments point at their parent instead of copying items) and newest-N reads cost O(N).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { ConfigError, ConflictError, StoreError } from '../errors.js';
import type { ThreadItem } from './item.js';
import { RedisLeases } from './redisLeases.js';
import {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkReset,
  resolveRange,
  threadNotFound,
} from './common.js';
import { operationTimeout } from './deadline.js';
import { activeFences } from './fence.js';
import { RedisConnection, type ScriptClient } from './redisConnection.js';
import { RedisTraceStore, type RedisTraceOptions } from './redisTraces.js';
import { linkTraceStore } from './traceStores.js';
import { scripts, type RedisScript } from './redisScripts.js';
import type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';
import { checkIds } from './ids.js';

/** Options of {@link RedisStore}. Every field is optional. */
export interface RedisStoreOptions {
  /** Server URL, e.g. `redis://127.0.0.1:6379` (default). Ignored when `client` is given. */
  url?: string;
  /**
   * A node-redis client to use instead of connecting to `url`. The store connects it if needed
   * but never closes it: the caller owns it.
   */
  client?: RedisClientType<any, any, any, any, any>;
  /** Prefix of every key the store writes (default `colloquy:`). Give each store its own. */
  keyPrefix?: string;
  /**
   * How long one operation may wait for Redis before it fails with a transient `StoreError`
   * (default 10000 ms; 0: no limit). A frozen or unreachable server then fails calls in time.
   */
  operationTimeoutMs?: number;
  /** How long traces are kept: a TTL and/or a cap on their number (default: the newest 10,000). */
  traces?: RedisTraceOptions;
}

const defaults = { url: 'redis://127.0.0.1:6379', keyPrefix: 'colloquy:' };

/** Parses one HGETALL reply (a flat `[field, value, …]` array) into a thread record. */
function toRecord(reply: unknown): ThreadRecord | null {
  if (!Array.isArray(reply) || reply.length === 0) return null;
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < reply.length; i += 2) f.set(String(reply[i]), String(reply[i + 1]));
  return {
    threadId: f.get('id')!,
    chatId: f.get('chat') ?? null,
    version: Number(f.get('version')),
    metadata: JSON.parse(f.get('meta') ?? '{}') as Record<string, unknown>,
    forkedFrom: JSON.parse(f.get('fork') ?? 'null') as ThreadRecord['forkedFrom'],
    createdAt: f.get('created')!,
    updatedAt: f.get('updated')!,
  };
}

function chatArgs(chatId: string | null | undefined): [string, string] {
  return chatId === null || chatId === undefined ? ['0', ''] : ['1', chatId];
}

/**
 * Threads in Redis. Needs a standalone Redis 6.2+ (not Cluster: scripts touch several keys).
 * Connection failures surface as `StoreError` with `transient: true`; wrap the store with
 * `withRetry()` to retry them.
 *
 * @example
 * ```ts
 * const store = new RedisStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'myapp:' });
 * await store.append('main', [{ id: 'm1', item: { role: 'user', content: 'hi' } }], { expectedVersion: 0 });
 * const fork = await store.fork('main', 'what-if');
 * await store.close();
 * ```
 */
export class RedisStore implements ThreadStore {
  readonly kind = 'redis';
  readonly #db: RedisConnection;
  /** Leases seen by every process using the same Redis and key prefix. */
  readonly leases: RedisLeases;
  /** Traces of the store's runs, under the same key prefix (see `redisTraces.ts`). */
  readonly traces: RedisTraceStore;

  constructor(options: RedisStoreOptions = {}) {
    if (options.keyPrefix === '') {
      throw new ConfigError(
        'RedisStore: keyPrefix is empty. Give the store a prefix such as `colloquy:` so its keys cannot collide with others.',
      );
    }
    this.#db = new RedisConnection({
      url: options.url ?? defaults.url,
      prefix: options.keyPrefix ?? defaults.keyPrefix,
      ...(options.client ? { client: options.client as unknown as ScriptClient } : {}),
      timeoutMs: operationTimeout('RedisStore', options.operationTimeoutMs),
    });
    const run = (script: RedisScript, operation: string, args: string[]) =>
      this.#run(script, operation, args);
    this.leases = new RedisLeases(run);
    this.traces = new RedisTraceStore(run, options.traces);
    linkTraceStore(this, this.traces);
  }

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkIds('getThread', threadId);
    return toRecord(await this.#run(scripts.get, 'getThread', [threadId]));
  }

  async readItems(threadId: string, range: ReadRange = {}): Promise<ThreadItem[]> {
    checkIds('readItems', threadId);
    resolveRange(threadId, 0, range); // validates the range (throws ConfigError); the script applies it
    const args = [
      threadId,
      String(range.from ?? 0),
      String(range.limit ?? -1),
      String(range.newest ?? -1),
    ];
    const reply = (await this.#run(scripts.read, 'readItems', args)) as string[];
    return reply.map((s) => JSON.parse(String(s)) as ThreadItem);
  }

  async append(threadId: string, items: ThreadItem[], options: AppendOptions): Promise<number> {
    checkIds('append', threadId, options.chatId);
    const serialized = items.map((i) => JSON.stringify(i));
    const args = [
      threadId,
      String(options.expectedVersion),
      now(),
      ...chatArgs(options.chatId),
      randomUUID(),
      ...serialized,
    ];
    const result = this.#json(await this.#write(scripts.append, 'append', args)) as {
      version?: number;
      conflict?: number;
    };
    if (result.conflict !== undefined)
      throw new ConflictError(threadId, options.expectedVersion, result.conflict);
    return result.version!;
  }

  async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    checkIds('setMetadata', threadId, chatId);
    const args = [threadId, JSON.stringify(metadata), now(), ...chatArgs(chatId), randomUUID()];
    await this.#write(scripts.setMetadata, 'setMetadata', args);
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    checkIds('listThreads', filter.chatId);
    const reply = (await this.#run(scripts.list, 'listThreads', [
      filter.chatId ?? '',
      filter.chatId === undefined ? '0' : '1',
    ])) as unknown[];
    return reply.map(toRecord).filter((r): r is ThreadRecord => r !== null);
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
    checkIds('fork', sourceId, targetId, options.chatId);
    const upTo =
      options.upTo === undefined
        ? ''
        : Number.isInteger(options.upTo)
          ? String(options.upTo)
          : '-1';
    const chatMode =
      options.chatId === undefined ? 'keep' : options.chatId === null ? 'null' : 'set';
    const metadata = options.metadata === undefined ? '' : JSON.stringify(options.metadata);
    const args = [
      sourceId,
      targetId,
      upTo,
      now(),
      chatMode,
      options.chatId ?? '',
      metadata,
      randomUUID(),
    ];
    const result = this.#json(await this.#write(scripts.fork, 'fork', args)) as {
      record?: unknown[];
      missing?: boolean;
      version?: number;
      exists?: number;
    };
    if (result.missing) throw threadNotFound(`fork("${sourceId}" → "${targetId}")`, sourceId);
    if (result.record) return toRecord(result.record)!;
    checkFork(
      sourceId,
      targetId,
      options.upTo ?? result.version!,
      result.version!,
      result.exists === 1,
    );
    throw new StoreError(
      `RedisStore: fork("${sourceId}" → "${targetId}") was refused by the server for no known reason. This is a bug: please report it.`,
    );
  }

  async reset(threadId: string, version: number): Promise<string | null> {
    checkIds('reset', threadId);
    const target = Number.isInteger(version) ? String(version) : '-1';
    const args = [threadId, target, archiveThreadId(threadId), now(), randomUUID()];
    const result = this.#json(await this.#write(scripts.reset, 'reset', args)) as {
      archive?: string;
      noop?: boolean;
      missing?: boolean;
      version?: number;
    };
    if (result.missing) throw threadNotFound(`reset("${threadId}")`, threadId);
    if (result.noop) return null;
    if (result.archive) return result.archive;
    checkReset(threadId, version, result.version!);
    throw new StoreError(
      `RedisStore: reset("${threadId}", ${version}) was refused by the server for no known reason. This is a bug: please report it.`,
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    checkIds('deleteThread', threadId);
    await this.#write(scripts.delete, 'deleteThread', [threadId]);
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    checkIds(
      'putCheckpoint',
      checkpoint.checkpointId,
      checkpoint.chatId,
      ...Object.keys(checkpoint.threads ?? {}),
    );
    const args = [checkpoint.checkpointId, checkpoint.chatId, JSON.stringify(checkpoint)];
    if (Number(await this.#write(scripts.putCheckpoint, 'putCheckpoint', args)) !== 1)
      throw checkpointExists(checkpoint.checkpointId);
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    checkIds('listCheckpoints', chatId);
    const reply = (await this.#run(scripts.listCheckpoints, 'listCheckpoints', [
      chatId,
    ])) as string[];
    const all = reply.map((s) => JSON.parse(String(s)) as Checkpoint);
    // Stored in put order; the stable sort keeps that order for equal timestamps.
    return all.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    checkIds('getCheckpoint', checkpointId);
    const reply = await this.#run(scripts.getCheckpoint, 'getCheckpoint', [checkpointId]);
    return reply === null || reply === undefined ? null : (JSON.parse(String(reply)) as Checkpoint);
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  #run(script: RedisScript, operation: string, args: string[]): Promise<unknown> {
    return this.#db.run(script, operation, args);
  }

  /** A write: checked against the active lease fences in the same script. */
  #write(script: RedisScript, operation: string, args: string[]): Promise<unknown> {
    return this.#db.run(script, operation, args, activeFences());
  }

  #json(reply: unknown): unknown {
    return this.#db.json(reply);
  }
}

function now(): string {
  return new Date().toISOString();
}
