/**
 * How {@link RedisStore} talks to Redis: one client (its own, connected on first use, or the
 * caller's), scripts run with EVALSHA (EVAL when the server has not cached them), an operation
 * deadline on every call, and failures turned into `StoreError`s that say whether retrying may
 * help. The thread, lease and trace scripts all run through one {@link RedisConnection}.
 * @module
 */
import { redactUrl } from '../redact.js';
import { createClient } from './redisDriver.js';
import { StoreError } from '../errors.js';
import { TRANSIENT_NETWORK_CODES } from './common.js';
import { withDeadline } from './deadline.js';
import { LeaseLostError, type Fence } from './fence.js';
import type { RedisScript } from './redisScripts.js';

/** The few client methods the store uses, so any client configuration (RESP 2 or 3) works. */
export interface ScriptClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  evalSha(sha: string, options: { keys?: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys?: string[]; arguments: string[] }): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

/** Error names and codes that mean the connection, not the request, failed: retrying may work. */
const transientNames = new Set([
  'ClientOfflineError',
  'ClientClosedError',
  // Rejects the commands pending on a client destroyed by an operation deadline (a frozen server).
  'DisconnectsClientError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'TimeoutError',
]);
const transientReplies = /^(LOADING|BUSY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN)\b/;

/** Whether a node-redis error means the connection or the server's state failed. */
export function isTransientRedisError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    transientNames.has(error.constructor.name) ||
    (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code))
  )
    return true;
  if (transientReplies.test(error.message)) return true;
  return error.cause !== undefined && error.cause !== error && isTransientRedisError(error.cause);
}

/** What a {@link RedisConnection} is opened with (resolved by the store). */
export interface RedisConnectionOptions {
  url: string;
  prefix: string;
  /** A caller's client (never closed by the connection). */
  client?: ScriptClient;
  /** Resolved operation timeout (0: none). */
  timeoutMs: number;
}

/** The client, script calls, deadlines and error wrapping of one Redis store. */
export class RedisConnection {
  readonly #url: string;
  readonly #prefix: string;
  readonly #owned: boolean;
  readonly #timeoutMs: number;
  #client: ScriptClient | undefined;
  #connecting: Promise<ScriptClient> | undefined;
  #closed = false;

  constructor(options: RedisConnectionOptions) {
    this.#url = options.url;
    this.#prefix = options.prefix;
    this.#owned = options.client === undefined;
    this.#client = options.client;
    this.#timeoutMs = options.timeoutMs;
  }

  /**
   * Runs a script with the key prefix as its first argument, within the deadline; `fences` go in
   * KEYS for the scripts that check them (a refusal becomes `LeaseLostError`).
   */
  run(
    script: RedisScript,
    operation: string,
    args: string[],
    fences: readonly Fence[] = [],
  ): Promise<unknown> {
    const work = this.#runNow(script, operation, args, fences);
    return withDeadline(work, this.#timeoutMs, () => {
      // The connection is stuck: drop our own, so the next operation connects afresh.
      const client = this.#client;
      if (this.#owned && client) {
        this.#client = undefined;
        if (client.isOpen) client.destroy();
      }
      return new StoreError(
        `RedisStore: ${operation} got no answer from Redis at ${redactUrl(this.#url)} within ${this.#timeoutMs} ms (operationTimeoutMs). ` +
          'The server is frozen, overloaded or unreachable; the operation may or may not have been applied. ' +
          'Check redis-server, or raise operationTimeoutMs; the failure is transient: retry.',
        { transient: true },
      );
    });
  }

  /** Parses a script's JSON reply, failing with the reply when it is not JSON. */
  json(reply: unknown): unknown {
    try {
      return JSON.parse(String(reply));
    } catch (error) {
      throw new StoreError(
        `RedisStore: the server sent an unreadable reply ${JSON.stringify(reply)}. Check that keyPrefix "${this.#prefix}" is used by Colloquy only.`,
        { cause: error },
      );
    }
  }

  /** Closes the client if it is the store's own; later calls fail with a StoreError. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (this.#owned && client?.isOpen) await client.close();
  }

  async #runNow(
    script: RedisScript,
    operation: string,
    args: string[],
    fences: readonly Fence[],
  ): Promise<unknown> {
    const keys = fences.flatMap((fence) => [fence.key, fence.owner]);
    const options = { ...(keys.length > 0 ? { keys } : {}), arguments: [this.#prefix, ...args] };
    try {
      const client = await this.#connected();
      try {
        return await client.evalSha(script.sha, options);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return await client.eval(script.source, options);
      }
    } catch (error) {
      const fenced = error instanceof Error ? /^COLLOQUY_FENCED (\d+)/.exec(error.message) : null;
      const fence = fenced ? fences[Number(fenced[1]) - 1] : undefined;
      if (fence) throw new LeaseLostError(fence.key, `RedisStore: ${operation}`);
      throw this.#failure(operation, error);
    }
  }

  async #connected(): Promise<ScriptClient> {
    if (this.#closed) {
      throw new StoreError(
        `RedisStore (${redactUrl(this.#url)}): the store is closed. Create a new RedisStore to keep using Redis.`,
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

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error;
    const reason =
      error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
    const url = redactUrl(this.#url);
    if (isTransientRedisError(error)) {
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
