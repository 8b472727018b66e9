/**
 * Traces in Redis, under the key prefix of a {@link RedisStore} (see `redisTraceScripts.ts` for
 * the keys), so that a Redis deployment keeps its traces next to its threads. Redis keeps
 * everything in memory, so traces are capped (the newest 10,000 by default) and may expire.
 * @module
 */
import { ConfigError } from '../errors.js';
import type { RedisScript } from './redisScripts.js';
import { traceScripts } from './redisTraceScripts.js';
import { boundTrace } from './traceBounds.js';
import {
  parseStoredTrace,
  traceLimit,
  type StoredTrace,
  type TraceFilter,
  type TraceStore,
  type TraceSummary,
} from './traceStore.js';

/** How long a Redis store keeps traces. Every field is optional. */
export interface RedisTraceOptions {
  /** Each trace expires this many seconds after it is saved (default: never). */
  ttlSeconds?: number;
  /** Keep at most this many traces, dropping the oldest (default 10,000; 0: no cap). */
  maxTraces?: number;
}

/** The default {@link RedisTraceOptions.maxTraces}. */
export const DEFAULT_MAX_REDIS_TRACES = 10_000;

/** Runs one script through the store (prefix, deadline, error wrapping). */
export type RunTraceScript = (
  script: RedisScript,
  operation: string,
  args: string[],
) => Promise<unknown>;

function whole(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 0)
    throw new ConfigError(
      `RedisStore: traces.${name} is ${String(value)}; use a whole number ≥ 0 (0 turns it off).`,
    );
  return resolved;
}

/**
 * A {@link TraceStore} in Redis. Normally made by `RedisStore` (its `traces`); it shares the
 * store's connection, so `close()` is a no-op: close the thread store.
 *
 * @example
 * ```ts
 * const store = new RedisStore({ url, traces: { ttlSeconds: 7 * 86_400 } });
 * const [latest] = await store.traces.listTraces({ chatId: 'support-42', limit: 1 });
 * ```
 */
export class RedisTraceStore implements TraceStore {
  readonly kind = 'redis';
  readonly #run: RunTraceScript;
  readonly #ttl: number;
  readonly #max: number;

  constructor(run: RunTraceScript, options: RedisTraceOptions = {}) {
    this.#run = run;
    this.#ttl = whole('ttlSeconds', options.ttlSeconds, 0);
    this.#max = whole('maxTraces', options.maxTraces, DEFAULT_MAX_REDIS_TRACES);
  }

  async saveTrace(stored: StoredTrace): Promise<void> {
    const body = boundTrace(parseStoredTrace(stored));
    const { trace } = body;
    const score = Date.parse(trace.startedAt);
    await this.#run(traceScripts.save, 'saveTrace', [
      trace.traceId,
      String(Number.isFinite(score) ? score : 0),
      trace.chatId ?? '',
      trace.runId ?? '',
      JSON.stringify(trace),
      JSON.stringify(body),
      String(this.#ttl),
      String(this.#max),
    ]);
  }

  async listTraces(filter: TraceFilter = {}): Promise<TraceSummary[]> {
    const reply = (await this.#run(traceScripts.list, 'listTraces', [
      filter.chatId ?? '',
      filter.runId ?? '',
      String(traceLimit(filter)),
    ])) as unknown[];
    return reply.map((summary) => JSON.parse(String(summary)) as TraceSummary);
  }

  async getTrace(traceId: string): Promise<StoredTrace | null> {
    const reply = await this.#run(traceScripts.get, 'getTrace', [traceId]);
    return reply === null || reply === undefined
      ? null
      : parseStoredTrace(JSON.parse(String(reply)));
  }

  async deleteTraces(filter: { chatId: string }): Promise<number> {
    return Number(await this.#run(traceScripts.deleteByChat, 'deleteTraces', [filter.chatId]));
  }

  /** A no-op: the thread store owns the connection. */
  async close(): Promise<void> {}
}
