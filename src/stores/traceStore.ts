/**
 * Stored traces: what a finished agency call or ensemble run looked like, span by span. The
 * {@link TraceStore} interface is small (save one finished trace, list, get, delete); the memory
 * store is the reference, and SQLite/Postgres/Redis keep traces in the database of the threads.
 *
 * Changelog of the saved form (`schemaVersion`):
 * 1: trace summary + spans as in {@link StoredTrace}.
 * @module
 */
import { z } from 'zod';
import { SerializationError } from '../errors.js';
import { tokenCountsSchema, type TokenCounts } from '../usage.js';
import {
  boundTrace,
  resolveRetention,
  retentionCutoff,
  type TraceRetention,
} from './traceBounds.js';

/** The version of {@link StoredTrace} written today. */
export const TRACE_SCHEMA_VERSION = 1;

/** What a span stands for. */
export type SpanKind =
  | 'agent'
  | 'generation'
  | 'function'
  | 'send_message'
  | 'handoff'
  | 'guardrail'
  | 'ensemble_run'
  | 'ensemble_step'
  | 'ensemble_agent'
  | 'custom';

/** One line of a trace list. Times are ISO strings. */
export interface TraceSummary {
  traceId: string;
  name: string;
  chatId?: string;
  runId?: string;
  agency?: string;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  spanCount: number;
  usage?: TokenCounts;
}

/** One span. `attributes` hold e.g. `agent`, `caller`, `depth`, `model`, `inputTokens`, `tool`. */
export interface SpanRecord {
  spanId: string;
  traceId: string;
  parentId: string | null;
  kind: SpanKind;
  name: string;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  attributes: Record<string, unknown>;
  error?: { message: string };
}

/** A whole trace as saved. */
export interface StoredTrace {
  schemaVersion: number;
  trace: TraceSummary;
  spans: SpanRecord[];
}

/** Filters of {@link TraceStore.listTraces}. */
export interface TraceFilter {
  chatId?: string;
  runId?: string;
  /** At most this many, newest first (default 50). */
  limit?: number;
}

/** Where finished traces are kept. */
export interface TraceStore {
  /** Short backend name, e.g. `sqlite`. */
  readonly kind: string;
  /** Saves a finished trace (replacing one with the same id). */
  saveTrace(trace: StoredTrace): Promise<void>;
  /** Summaries, newest first (equal start times: trace id descending). */
  listTraces(filter?: TraceFilter): Promise<TraceSummary[]>;
  /** One trace with its spans, or null. */
  getTrace(traceId: string): Promise<StoredTrace | null>;
  /** Deletes the traces of a chat; returns how many. */
  deleteTraces(filter: { chatId: string }): Promise<number>;
  /** Releases connections (a no-op for stores that share the thread store's). */
  close(): Promise<void>;
}

const summarySchema = z.object({
  traceId: z.string(),
  name: z.string(),
  chatId: z.string().optional(),
  runId: z.string().optional(),
  agency: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  durationMs: z.number().optional(),
  spanCount: z.number().int(),
  usage: tokenCountsSchema.optional(),
});

const spanSchema = z.object({
  spanId: z.string(),
  traceId: z.string(),
  parentId: z.string().nullable(),
  kind: z.enum([
    'agent',
    'generation',
    'function',
    'send_message',
    'handoff',
    'guardrail',
    'ensemble_run',
    'ensemble_step',
    'ensemble_agent',
    'custom',
  ]),
  name: z.string(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  durationMs: z.number().optional(),
  attributes: z.record(z.string(), z.unknown()),
  error: z.object({ message: z.string() }).optional(),
});

/** The schema of a saved trace (every backend reads through it). */
export const storedTraceSchema = z.object({
  schemaVersion: z.literal(TRACE_SCHEMA_VERSION),
  trace: summarySchema,
  spans: z.array(spanSchema),
});

/** Parses a saved trace, failing with the trace id and the bad field. */
export function parseStoredTrace(value: unknown): StoredTrace {
  const parsed = storedTraceSchema.safeParse(value);
  if (!parsed.success) {
    const id = (value as { trace?: { traceId?: unknown } })?.trace?.traceId;
    const issue = parsed.error.issues[0];
    throw new SerializationError(
      `Stored trace ${String(id ?? '(no id)')} is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message}. ` +
        'It was written by an unknown version; delete it with `colloquy threads delete CHAT`.',
    );
  }
  return parsed.data as StoredTrace;
}

/** Whether a summary passes a filter's chat and run ids. */
export function matchesFilter(summary: TraceSummary, filter: TraceFilter): boolean {
  return (
    (filter.chatId === undefined || summary.chatId === filter.chatId) &&
    (filter.runId === undefined || summary.runId === filter.runId)
  );
}

/** The order of {@link TraceStore.listTraces}: newest start first, then trace id descending. */
export function compareNewestFirst(a: TraceSummary, b: TraceSummary): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? 1 : -1;
  return a.traceId === b.traceId ? 0 : a.traceId < b.traceId ? 1 : -1;
}

/** The default and largest list sizes. */
export const DEFAULT_TRACE_LIMIT = 50;
export const MAX_TRACE_LIMIT = 1000;

/** A filter's limit, clamped to 1..{@link MAX_TRACE_LIMIT}. */
export function traceLimit(filter: TraceFilter = {}): number {
  const limit = filter.limit ?? DEFAULT_TRACE_LIMIT;
  return Math.max(1, Math.min(MAX_TRACE_LIMIT, Math.floor(limit)));
}

/** Options of {@link MemoryTraceStore}. */
export interface MemoryTraceStoreOptions {
  /** How long traces are kept (default: 30 days and the newest 10,000; see `traceBounds.ts`). */
  retention?: TraceRetention;
}

/**
 * The reference {@link TraceStore}: traces in memory, newest first. Also the trace store of the
 * memory and JSON-file thread stores. Retention drops the oldest saved traces beyond
 * `maxTraces`, and traces older than `maxAgeMs` at each save.
 *
 * @example
 * ```ts
 * const traces = new MemoryTraceStore({ retention: { maxTraces: 1_000 } });
 * setupTracing({ store: traces });
 * ```
 */
export class MemoryTraceStore implements TraceStore {
  readonly kind: string = 'memory';
  readonly #traces = new Map<string, StoredTrace>();
  readonly #retention: Required<TraceRetention>;

  constructor(options: MemoryTraceStoreOptions = {}) {
    this.#retention = resolveRetention('MemoryTraceStore', options.retention);
  }

  async saveTrace(trace: StoredTrace): Promise<void> {
    const copy = boundTrace(parseStoredTrace(structuredClone(trace)));
    this.#traces.delete(copy.trace.traceId);
    this.#traces.set(copy.trace.traceId, copy);
    this.#prune();
  }

  /** Drops traces past the age limit and the oldest saved beyond the count limit. */
  #prune(): void {
    const cutoff = retentionCutoff(this.#retention);
    if (cutoff !== undefined)
      for (const [id, stored] of this.#traces)
        if (stored.trace.startedAt < cutoff) this.#traces.delete(id);
    const max = this.#retention.maxTraces;
    if (max === 0) return;
    for (const id of this.#traces.keys()) {
      if (this.#traces.size <= max) break;
      this.#traces.delete(id);
    }
  }

  async listTraces(filter: TraceFilter = {}): Promise<TraceSummary[]> {
    return [...this.#traces.values()]
      .map((stored) => stored.trace)
      .filter((summary) => matchesFilter(summary, filter))
      .sort((a, b) => compareNewestFirst(a, b))
      .slice(0, traceLimit(filter))
      .map((summary) => structuredClone(summary));
  }

  async getTrace(traceId: string): Promise<StoredTrace | null> {
    const found = this.#traces.get(traceId);
    return found ? structuredClone(found) : null;
  }

  async deleteTraces(filter: { chatId: string }): Promise<number> {
    let count = 0;
    for (const [id, stored] of this.#traces)
      if (stored.trace.chatId === filter.chatId) {
        this.#traces.delete(id);
        count += 1;
      }
    return count;
  }

  async close(): Promise<void> {}
}
