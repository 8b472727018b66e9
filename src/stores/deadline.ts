/**
 * Operation deadlines for networked stores: a server that stops answering (frozen, overloaded, a
 * half-open connection) must fail the call with a clear error instead of leaving it pending.
 * @module
 */
import { ConfigError } from '../errors.js';

/** The default time a Redis or Postgres store operation may take: 10 s. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 10_000;

/** Checks an `operationTimeoutMs` option: a whole number of ms ≥ 1, or 0 for none. */
export function operationTimeout(store: string, value: number | undefined): number {
  const ms = value ?? DEFAULT_OPERATION_TIMEOUT_MS;
  if (!Number.isInteger(ms) || ms < 0) {
    throw new ConfigError(
      `${store}: operationTimeoutMs must be a whole number of milliseconds ≥ 0 (got ${value}); 0 means no timeout.`,
    );
  }
  return ms;
}

/**
 * Settles like `work`, or rejects with `onTimeout()` once `ms` pass first (`ms` 0: never). The
 * work itself is not stopped; `onTimeout` may drop its connection.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  if (ms === 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  // A late rejection of the abandoned work must not go unhandled.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
