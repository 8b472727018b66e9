/**
 * Connections and key names of the work queue: BullMQ on Redis (through ioredis), plus a few
 * keys of Colloquy's own under the same prefix (event channels, chat journals, run event logs).
 * @module
 */
import { redactUrl } from '../redact.js';
import { Redis, type RedisOptions } from './drivers.js';
import { ColloquyError, ConfigError } from '../errors.js';

/** The BullMQ queue every call and run goes through. */
export const QUEUE_NAME = 'work';

/** A queue that could not be reached or refused the work: the call was not queued. */
export class QueueUnavailableError extends ColloquyError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('QUEUE_UNAVAILABLE', message, options);
  }
}

/** Where the queue lives. */
export interface QueueConnectionOptions {
  /** `redis://HOST:PORT[/DB]` of the queue's Redis (default `redis://127.0.0.1:6379`). */
  queue?: string;
  /** Prefix of every queue key (default `colloquy`). Servers and workers must agree on it. */
  prefix?: string;
}

/** {@link QueueConnectionOptions} with defaults applied. */
export interface QueueConnection {
  readonly url: string;
  readonly prefix: string;
  /** Keys and channels of Colloquy's own, next to BullMQ's. */
  readonly keys: QueueKeys;
  /** A new ioredis connection; `blocking` ones (workers, subscribers) retry commands forever. */
  connect(role: 'commands' | 'blocking' | 'producer'): Redis;
}

/** Key and channel names under the queue prefix. */
export interface QueueKeys {
  /** Pub/sub channel of one call's events. */
  callEvents(callId: string): string;
  /** Pub/sub channel of one server process: the events of every call it queued. */
  inbox(clientId: string): string;
  /** Pub/sub channel every worker listens on for cancellations. */
  readonly cancel: string;
  /** Marks a call cancelled before a worker took it (expires). */
  cancelled(callId: string): string;
  /** The outcome of a call whose effects are complete, so that a retry only returns it. */
  done(callId: string): string;
  /** Which job works on a chat now, and the chat's threads before it began. */
  journal(agency: string, chatId: string): string;
  /** The calls queued on a chat and not yet answered (a set of call ids, for `DELETE`). */
  chatCalls(agency: string, chatId: string): string;
  /** The events of an ensemble run, in order (a list). */
  runEvents(runId: string): string;
  /** Pub/sub channel telling followers a run has new events. */
  runChannel(runId: string): string;
  /** The job id of a run's latest job. */
  runJob(runId: string): string;
}

/** Resolves the queue options and checks the URL. */
export function queueConnection(options: QueueConnectionOptions = {}): QueueConnection {
  const url = options.queue ?? 'redis://127.0.0.1:6379';
  if (!/^rediss?:\/\/[^/]/.test(url)) {
    throw new ConfigError(
      `Queue "${redactUrl(url)}" is not a Redis URL. Pass --queue redis://HOST:PORT (the Redis that holds the BullMQ queue).`,
    );
  }
  const prefix = options.prefix ?? 'colloquy';
  if (!/^[A-Za-z0-9_.-]+$/.test(prefix)) {
    throw new ConfigError(
      `Queue prefix "${prefix}" may hold only letters, digits, "_", "." and "-". Pick e.g. "colloquy".`,
    );
  }
  const own = `${prefix}:q`;
  const keys: QueueKeys = {
    callEvents: (callId) => `${own}:call:${callId}`,
    inbox: (clientId) => `${own}:inbox:${clientId}`,
    cancel: `${own}:cancel`,
    cancelled: (callId) => `${own}:cancelled:${callId}`,
    done: (callId) => `${own}:done:${callId}`,
    journal: (agency, chatId) => `${own}:chat:${agency.length}:${agency}:${chatId}`,
    chatCalls: (agency, chatId) => `${own}:calls:${agency.length}:${agency}:${chatId}`,
    runEvents: (runId) => `${own}:run:${runId}:events`,
    runChannel: (runId) => `${own}:run:${runId}:channel`,
    runJob: (runId) => `${own}:run:${runId}:job`,
  };
  return {
    url,
    prefix,
    keys,
    connect(role) {
      const common: RedisOptions = {
        // Reconnect quickly after a restart, backing off to 1 s.
        retryStrategy: (times) => Math.min(1_000, 50 * times),
        connectTimeout: 5_000,
      };
      const byRole: Record<typeof role, RedisOptions> = {
        // BullMQ workers and subscribers must wait through outages (BullMQ requires null here).
        blocking: { maxRetriesPerRequest: null },
        // Workers' own writes (events, journals): wait through short outages, then fail.
        commands: { maxRetriesPerRequest: 20 },
        // Servers fail fast, so that a call that cannot be queued gets a clear error at once.
        producer: { maxRetriesPerRequest: 1, enableOfflineQueue: false },
      };
      const client = new Redis(url, { ...common, ...byRole[role], lazyConnect: false });
      // Connection errors reach the commands that fail; the event needs a listener only so that
      // Node does not treat it as unhandled.
      client.on('error', () => undefined);
      return client;
    },
  };
}

/**
 * Closes an ioredis connection: politely (QUIT) when it is up, at once when it is not (a QUIT
 * queued on a connection that never came up would wait for Redis forever), and at once after
 * `timeoutMs` in any case.
 */
export async function closeConnection(redis: Redis, timeoutMs = 2_000): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    redis.quit().catch(() => undefined), // closing: a connection already gone is closed
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
  redis.disconnect();
}
