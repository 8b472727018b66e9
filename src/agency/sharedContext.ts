/**
 * The context shared by every run of an agency call (seed 003's MasterContext): one object that
 * the entry point, every nested agent, their tools, guardrails and instructions all see. Tools
 * read and write it through {@link sharedContext}.
 * @module
 */
import type { RunContext } from '@openai/agents-core';
import { ConfigError } from '../errors.js';

/** A typed view of the shared context object. Writes go to the object itself, so every run sees them. */
export interface SharedContext<T extends object> {
  /** The shared object itself. */
  readonly value: T;
  /** The value under `key`, or `fallback` (default undefined) when it is not set. */
  get<K extends keyof T>(key: K): T[K] | undefined;
  get<K extends keyof T>(key: K, fallback: T[K]): T[K];
  /** Sets `key` for every later reader in this call (and later calls sharing the object). */
  set<K extends keyof T>(key: K, value: T[K]): void;
  /** Whether `key` is set. */
  has(key: keyof T): boolean;
  /** Removes `key`. */
  delete(key: keyof T): void;
}

/**
 * The shared context of the run a tool (or guardrail, or instructions function) is called from.
 * Without `context` in `getResponse`, every call of an agency shares the agency's own context
 * object, seeded from `AgencyOptions.userContext`.
 *
 * @example
 * ```ts
 * const remember = tool({
 *   name: 'remember',
 *   parameters: z.object({ fact: z.string() }),
 *   execute: ({ fact }, runContext) => {
 *     const shared = sharedContext<{ facts: string[] }>(runContext);
 *     shared.set('facts', [...shared.get('facts', []), fact]);
 *     return 'noted';
 *   },
 * });
 * ```
 */
export function sharedContext<T extends object = Record<string, unknown>>(
  runContext: RunContext<unknown> | undefined,
): SharedContext<T> {
  const value = runContext?.context;
  if (value === null || typeof value !== 'object') {
    throw new ConfigError(
      `sharedContext: the run's context is ${value === null ? 'null' : typeof value}, not an object. ` +
        'Pass an object as getResponse({ context }) or leave it out to use the agency context.',
    );
  }
  const record = value as T;
  return {
    value: record,
    get: (key: keyof T, fallback?: unknown) => (key in record ? record[key] : fallback) as never,
    set: (key, next) => {
      record[key] = next;
    },
    has: (key) => key in record,
    delete: (key) => {
      delete record[key];
    },
  };
}
