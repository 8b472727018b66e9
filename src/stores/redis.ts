/**
 * A {@link ThreadStore} on Redis (node-redis). Every operation is one Lua script (see
 * `redisScripts.ts`), so appends are atomic with their version check, forks and rollbacks are O(1)
 * (segments point at their parent instead of copying items) and newest-N reads cost O(N).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { ConfigError, ConflictError, StoreError } from '../errors.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import type { StoreCapabilities } from './capabilities.js';
import type { ThreadItem } from './item.js';
import { RedisLeases } from './redisLeases.js';
import type { CheckpointEntry } from './storeRequests.js';
import { operationTimeout } from './deadline.js';
import { activeFences } from './fence.js';
import { RedisConnection, type ScriptClient } from './redisConnection.js';
import { RedisTraceStore, type RedisTraceOptions } from './redisTraces.js';
import { linkTraceStore } from './traceStores.js';
import { scripts, type RedisScript } from './redisScripts.js';
import type { AppendOptions, ReadRange, ThreadRecord } from './types.js';

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
export class RedisStore extends BaseStore {
  readonly kind = 'redis';
  readonly capabilities: StoreCapabilities = {
    leases: true,
    appendMany: false,
    traces: true,
    crossProcess: true,
  };
  readonly #db: RedisConnection;
  /** Leases seen by every process using the same Redis and key prefix. */
  readonly leases: RedisLeases;
  /** Traces of the store's runs, under the same key prefix (see `redisTraces.ts`). */
  readonly traces: RedisTraceStore;

  constructor(options: RedisStoreOptions = {}) {
    super();
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

  protected async readRecord(threadId: string): Promise<ThreadRecord | null> {
    return toRecord(await this.#run(scripts.get, 'getThread', [threadId]));
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    const args = [
      threadId,
      String(range.from ?? 0),
      String(range.limit ?? -1),
      String(range.newest ?? -1),
    ];
    const reply = (await this.#run(scripts.read, 'readItems', args)) as string[];
    return reply.map((s) => JSON.parse(String(s)) as ThreadItem);
  }

  protected async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    const args = [
      threadId,
      String(options.expectedVersion),
      now(),
      ...chatArgs(options.chatId),
      randomUUID(),
      ...bodies,
    ];
    const result = this.#json(await this.#write(scripts.append, 'append', args)) as {
      version?: number;
      conflict?: number;
    };
    if (result.conflict !== undefined)
      throw new ConflictError(threadId, options.expectedVersion, result.conflict);
    return result.version!;
  }

  protected async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    const args = [threadId, metadata, now(), ...chatArgs(chatId), randomUUID()];
    await this.#write(scripts.setMetadata, 'setMetadata', args);
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    const reply = (await this.#run(scripts.list, 'listThreads', [
      chatId ?? '',
      chatId === undefined ? '0' : '1',
    ])) as unknown[];
    return reply.map(toRecord).filter((r): r is ThreadRecord => r !== null);
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const { sourceId, targetId, upTo, chatId } = request;
    const upToArg = upTo === undefined ? '' : Number.isInteger(upTo) ? String(upTo) : '-1';
    const chatMode = chatId === undefined ? 'keep' : chatId === null ? 'null' : 'set';
    const args = [
      sourceId,
      targetId,
      upToArg,
      now(),
      chatMode,
      chatId ?? '',
      request.metadata ?? '',
      randomUUID(),
    ];
    const result = this.#json(await this.#write(scripts.fork, 'fork', args)) as {
      record?: unknown[];
      missing?: boolean;
      version?: number;
      exists?: number;
    };
    if (result.record) return toRecord(result.record)!;
    // The script refused: check() throws the error every backend gives for this case.
    request.check(result.missing ? null : result.version!, result.exists === 1);
    throw new StoreError(
      `RedisStore: fork("${sourceId}" → "${targetId}") was refused by the server for no known reason. This is a bug: please report it.`,
    );
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version, archiveId } = request;
    const target = Number.isInteger(version) ? String(version) : '-1';
    const args = [threadId, target, archiveId, now(), randomUUID()];
    const result = this.#json(await this.#write(scripts.rollback, 'rollback', args)) as {
      archive?: string;
      noop?: boolean;
      missing?: boolean;
      version?: number;
    };
    if (result.noop) return null;
    if (result.archive) return result.archive;
    request.check(result.missing ? null : result.version!);
    throw new StoreError(
      `RedisStore: rollback("${threadId}", ${version}) was refused by the server for no known reason. This is a bug: please report it.`,
    );
  }

  protected async removeThread(threadId: string): Promise<void> {
    await this.#write(scripts.delete, 'deleteThread', [threadId]);
  }

  protected override async saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    const args = [entry.checkpointId, entry.chatId, entry.body];
    return Number(await this.#write(scripts.putCheckpoint, 'putCheckpoint', args)) === 1;
  }

  /** Stored in put order; the base's stable sort keeps that order for equal timestamps. */
  protected override async loadCheckpoints(chatId: string): Promise<string[]> {
    const reply = (await this.#run(scripts.listCheckpoints, 'listCheckpoints', [
      chatId,
    ])) as string[];
    return reply.map(String);
  }

  protected override async loadCheckpoint(checkpointId: string): Promise<string | null> {
    const reply = await this.#run(scripts.getCheckpoint, 'getCheckpoint', [checkpointId]);
    return reply === null || reply === undefined ? null : String(reply);
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
