/**
 * A {@link ThreadStore} on Redis (node-redis). Every operation is one Lua script (see
 * `redisScripts.ts`), so appends are atomic with their version check, forks and resets are O(1)
 * (segments point at their parent instead of copying items) and newest-N reads cost O(N).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
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
  TRANSIENT_NETWORK_CODES,
} from './common.js';
import { scripts, type RedisScript } from './redisScripts.js';
import type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';

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
}

/** The few client methods the store uses, so any client configuration (RESP 2 or 3) works. */
interface ScriptClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  evalSha(sha: string, options: { arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { arguments: string[] }): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

const defaults = { url: 'redis://127.0.0.1:6379', keyPrefix: 'colloquy:' };

/** Error names and codes that mean the connection, not the request, failed: retrying may work. */
const transientNames = new Set([
  'ClientOfflineError',
  'ClientClosedError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'TimeoutError',
]);
const transientCodes = TRANSIENT_NETWORK_CODES;
const transientReplies = /^(LOADING|BUSY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN)\b/;

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    transientNames.has(error.constructor.name) ||
    (typeof code === 'string' && transientCodes.has(code))
  )
    return true;
  if (transientReplies.test(error.message)) return true;
  return error.cause !== undefined && error.cause !== error && isTransient(error.cause);
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

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
  readonly #url: string;
  readonly #prefix: string;
  readonly #owned: boolean;
  #client: ScriptClient | undefined;
  #connecting: Promise<ScriptClient> | undefined;
  #closed = false;
  /** Leases seen by every process using the same Redis and key prefix. */
  readonly leases = new RedisLeases((script, operation, args) =>
    this.#run(script, operation, args),
  );

  constructor(options: RedisStoreOptions = {}) {
    if (options.keyPrefix === '') {
      throw new ConfigError(
        'RedisStore: keyPrefix is empty. Give the store a prefix such as `colloquy:` so its keys cannot collide with others.',
      );
    }
    this.#prefix = options.keyPrefix ?? defaults.keyPrefix;
    this.#url = options.url ?? defaults.url;
    this.#owned = options.client === undefined;
    this.#client = options.client as unknown as ScriptClient | undefined;
  }

  async getThread(threadId: string): Promise<ThreadRecord | null> {
    return toRecord(await this.#run(scripts.get, 'getThread', [threadId]));
  }

  async readItems(threadId: string, range: ReadRange = {}): Promise<ThreadItem[]> {
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
    const serialized = items.map((i) => JSON.stringify(i));
    const args = [
      threadId,
      String(options.expectedVersion),
      now(),
      ...chatArgs(options.chatId),
      randomUUID(),
      ...serialized,
    ];
    const result = this.#json(await this.#run(scripts.append, 'append', args)) as {
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
    const args = [threadId, JSON.stringify(metadata), now(), ...chatArgs(chatId), randomUUID()];
    await this.#run(scripts.setMetadata, 'setMetadata', args);
  }

  async listThreads(filter: { chatId?: string } = {}): Promise<ThreadRecord[]> {
    const reply = (await this.#run(scripts.list, 'listThreads', [
      filter.chatId ?? '',
      filter.chatId === undefined ? '0' : '1',
    ])) as unknown[];
    return reply.map(toRecord).filter((r): r is ThreadRecord => r !== null);
  }

  async fork(sourceId: string, targetId: string, options: ForkOptions = {}): Promise<ThreadRecord> {
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
    const result = this.#json(await this.#run(scripts.fork, 'fork', args)) as {
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
    const target = Number.isInteger(version) ? String(version) : '-1';
    const args = [threadId, target, archiveThreadId(threadId), now(), randomUUID()];
    const result = this.#json(await this.#run(scripts.reset, 'reset', args)) as {
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
    await this.#run(scripts.delete, 'deleteThread', [threadId]);
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    const args = [checkpoint.checkpointId, checkpoint.chatId, JSON.stringify(checkpoint)];
    if (Number(await this.#run(scripts.putCheckpoint, 'putCheckpoint', args)) !== 1)
      throw checkpointExists(checkpoint.checkpointId);
  }

  async listCheckpoints(chatId: string): Promise<Checkpoint[]> {
    const reply = (await this.#run(scripts.listCheckpoints, 'listCheckpoints', [
      chatId,
    ])) as string[];
    const all = reply.map((s) => JSON.parse(String(s)) as Checkpoint);
    // Stored in put order; the stable sort keeps that order for equal timestamps.
    return all.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  async getCheckpoint(checkpointId: string): Promise<Checkpoint | null> {
    const reply = await this.#run(scripts.getCheckpoint, 'getCheckpoint', [checkpointId]);
    return reply === null || reply === undefined ? null : (JSON.parse(String(reply)) as Checkpoint);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (this.#owned && client?.isOpen) await client.close();
  }

  /** Runs a script with EVALSHA (EVAL when the server has not cached it yet). */
  async #run(script: RedisScript, operation: string, args: string[]): Promise<unknown> {
    const options = { arguments: [this.#prefix, ...args] };
    try {
      const client = await this.#connected();
      try {
        return await client.evalSha(script.sha, options);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return await client.eval(script.source, options);
      }
    } catch (error) {
      throw this.#failure(operation, error);
    }
  }

  async #connected(): Promise<ScriptClient> {
    if (this.#closed) {
      throw new StoreError(
        `RedisStore (${redact(this.#url)}): the store is closed. Create a new RedisStore to keep using Redis.`,
      );
    }
    if (this.#client?.isOpen) return this.#client;
    // Connect once, shared by concurrent callers. Our own client is replaced when it gave up
    // reconnecting; a caller's client is connected as it is.
    const client = this.#client;
    this.#connecting ??= (
      this.#owned || !client ? this.#connect() : client.connect().then(() => client)
    ).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(): Promise<ScriptClient> {
    const client = createClient({
      url: this.#url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5_000,
        reconnectStrategy: (retries, cause) => (retries >= 5 ? cause : 50 * 2 ** retries),
      },
    }) as unknown as ScriptClient & { on(event: 'error', listener: (error: Error) => void): void };
    // node-redis reports socket errors as events as well as rejecting the pending commands; the
    // rejections are what callers see, so the events need a listener only to keep Node running.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      if (client.isOpen) client.destroy();
      throw error;
    }
    this.#client = client;
    return client;
  }

  #json(reply: unknown): unknown {
    try {
      return JSON.parse(String(reply));
    } catch (error) {
      throw new StoreError(
        `RedisStore: the server sent an unreadable reply ${JSON.stringify(reply)}. Check that keyPrefix "${this.#prefix}" is used by Colloquy only.`,
        { cause: error },
      );
    }
  }

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error;
    const reason =
      error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
    const url = redact(this.#url);
    if (isTransient(error)) {
      return new StoreError(
        `RedisStore: ${operation} could not reach Redis at ${url}: ${reason}. Is redis-server running? Set \`url\` (or pass a connected \`client\`); the failure is transient: retry, or wrap the store with withRetry().`,
        { cause: error, transient: true },
      );
    }
    return new StoreError(
      `RedisStore: ${operation} failed on Redis at ${url}: ${reason}. Check that keyPrefix "${this.#prefix}" is used by Colloquy only and that the server is Redis 6.2 or later.`,
      { cause: error },
    );
  }
}

function now(): string {
  return new Date().toISOString();
}
