/**
 * The test services started by `test/setup/services.ts`, for test files: each getter returns the
 * server's URL, or `undefined` when it is not available, and the matching `...Skip()` returns the
 * reason to skip with (pass it as the conformance suite's `skip`).
 * @example
 * ```ts
 * runStoreConformance({ name: 'redis', skip: redisSkip(), create: () => new RedisStore({ url: redisUrl() }) });
 * ```
 * @module
 */
import { inject } from 'vitest';

/** URL of the test Redis (`redis://127.0.0.1:PORT`), or `undefined` when it is not available. */
export function redisUrl(): string | undefined {
  return inject('redisUrl') ?? undefined;
}

/** URL of the test Postgres (`postgres://colloquy@127.0.0.1:PORT/postgres`), or `undefined`. */
export function postgresUrl(): string | undefined {
  return inject('postgresUrl') ?? undefined;
}

/** Why Redis tests skip (e.g. redis-server is not installed), or `undefined` when they run. */
export function redisSkip(): string | undefined {
  return inject('redisSkipReason') ?? undefined;
}

/** Why Postgres tests skip (e.g. postgresql is not installed), or `undefined` when they run. */
export function postgresSkip(): string | undefined {
  return inject('postgresSkipReason') ?? undefined;
}

/** A name that no other test (or concurrent run) uses, for key prefixes and schemas. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
