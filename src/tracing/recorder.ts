/**
 * The {@link TraceRecorder}: an SDK `TracingProcessor` that turns SDK spans into Colloquy spans
 * (see `spanRecord.ts`) as they start and end, tells listeners (logs, live progress, OTLP) and
 * saves each finished trace to the {@link TraceStore} it was bound to.
 * @module
 */
import type { Span as SdkSpan, SpanData, Trace, TracingProcessor } from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';
import {
  TRACE_SCHEMA_VERSION,
  type SpanRecord,
  type StoredTrace,
  type TraceStore,
  type TraceSummary,
} from '../stores/traceStore.js';
import { boundTrace, boundValue } from '../stores/traceBounds.js';
import { dispositionOf, durationBetween, spanAttributes, spanError } from './spanRecord.js';
import { spanContent } from './spanContent.js';

/** How one trace is kept: where it is saved, whether content and export are allowed. */
export interface TraceBinding {
  /** Where the finished trace is saved (default: the recorder's default store, if any). */
  store?: TraceStore;
  /** Keep message and tool text in spans (default true). */
  content?: boolean;
  /** Export this trace (OTLP, OpenAI) and save it (default true). */
  export?: boolean;
}

/** Told about spans and traces as they happen. Every method is optional. */
export interface TraceListener {
  onSpanStart?(span: SpanRecord, trace: LiveTrace): void;
  onSpanEnd?(span: SpanRecord, trace: LiveTrace): void;
  onTraceEnd?(trace: StoredTrace, binding: TraceBinding): void | Promise<void>;
}

/** A trace in progress. */
export interface LiveTrace {
  readonly traceId: string;
  readonly name: string;
  readonly metadata: Record<string, unknown>;
  readonly spans: ReadonlyMap<string, SpanRecord>;
}

interface OpenTrace extends LiveTrace {
  startedAt: string;
  binding: TraceBinding;
  spans: Map<string, SpanRecord>;
  /** For every SDK span id: the id of the kept span it belongs under (itself when kept). */
  keptOf: Map<string, string | null>;
  /** SDK spans folded into a kept span (attempts, nested generations). */
  folded: Map<string, 'attempt' | 'generation'>;
}

function addTokens(record: SpanRecord, input: number, output: number): void {
  const attributes = record.attributes;
  attributes.inputTokens = Number(attributes.inputTokens ?? 0) + input;
  attributes.outputTokens = Number(attributes.outputTokens ?? 0) + output;
}

/** Records SDK traces as Colloquy traces; register it with `setupTracing` (or `addTraceProcessor`). */
export class TraceRecorder implements TracingProcessor {
  readonly #open = new Map<string, OpenTrace>();
  readonly #bindings = new Map<string, TraceBinding>();
  readonly #listeners = new Set<TraceListener>();
  readonly #pending = new Set<Promise<void>>();
  /** Where traces without a bound store go (default none). */
  defaultStore: TraceStore | undefined;
  /** Save finished traces (false: spans reach listeners only; default true). */
  persist = true;
  /** Whether message and tool text is kept by default (default true). */
  content = true;
  /** Exact secret values scrubbed from every span. */
  secrets: readonly string[] = [];

  /**
   * Whether trace `traceId` keeps message and tool text: its binding's choice while it is open,
   * else the default ({@link content}). Other SDK processors are filtered by it (`contentFilter.ts`).
   */
  keepsContent(traceId: string): boolean {
    return this.#open.get(traceId)?.binding.content ?? this.content;
  }

  /** Binds a trace (before it starts) to a store and content/export choices. */
  bind(traceId: string, binding: TraceBinding): void {
    this.#bindings.set(traceId, binding);
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: TraceListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async onTraceStart(trace: Trace): Promise<void> {
    const binding = this.#bindings.get(trace.traceId) ?? {};
    this.#bindings.delete(trace.traceId);
    this.#open.set(trace.traceId, {
      traceId: trace.traceId,
      name: trace.name,
      metadata: { ...(trace.metadata ?? {}) },
      startedAt: new Date().toISOString(),
      binding,
      spans: new Map(),
      keptOf: new Map(),
      folded: new Map(),
    });
  }

  async onSpanStart(span: SdkSpan<SpanData>): Promise<void> {
    const trace = this.#open.get(span.traceId);
    if (!trace) return;
    const parent = span.parentId ? (trace.keptOf.get(span.parentId) ?? null) : null;
    const parentRecord = parent ? trace.spans.get(parent) : undefined;
    const disposition = dispositionOf(span.spanData);
    if (!disposition.keep) {
      trace.keptOf.set(span.spanId, parent);
      if (disposition.fold) trace.folded.set(span.spanId, disposition.fold);
      return;
    }
    // An ensemble LLM agent's SDK agent span repeats its ensemble_agent span: its children
    // (model and tool calls) go straight under the ensemble_agent span.
    if (
      disposition.kind === 'agent' &&
      parentRecord?.kind === 'ensemble_agent' &&
      parentRecord.attributes.agent === disposition.name
    ) {
      trace.keptOf.set(span.spanId, parent);
      return;
    }
    if (disposition.kind === 'generation' && parentRecord?.kind === 'generation') {
      trace.keptOf.set(span.spanId, parent);
      trace.folded.set(span.spanId, 'generation');
      return;
    }
    trace.keptOf.set(span.spanId, span.spanId);
    const agentRecord = this.#nearestAgent(trace, parent);
    const attributes: Record<string, unknown> = {};
    if (disposition.kind === 'agent') {
      attributes.agent = disposition.name;
      attributes.caller = agentRecord ? agentRecord.attributes.agent : null;
      attributes.depth = agentRecord ? Number(agentRecord.attributes.depth ?? 0) + 1 : 0;
    } else if (disposition.kind === 'ensemble_agent') {
      attributes.agent = disposition.name;
    } else if (agentRecord) {
      attributes.agent = agentRecord.attributes.agent;
    }
    const record: SpanRecord = {
      spanId: span.spanId,
      traceId: span.traceId,
      parentId: parent,
      kind: disposition.kind,
      name: disposition.name,
      startedAt: span.startedAt ?? new Date().toISOString(),
      attributes,
    };
    trace.spans.set(span.spanId, record);
    this.#tell((listener) => listener.onSpanStart?.(record, trace));
  }

  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    const trace = this.#open.get(span.traceId);
    if (!trace) return;
    const options = { content: trace.binding.content ?? this.content, secrets: this.secrets };
    const fold = trace.folded.get(span.spanId);
    if (fold) {
      const target = trace.spans.get(trace.keptOf.get(span.spanId) ?? '');
      if (target?.kind === 'generation') this.#fold(target, span, fold, options);
      return;
    }
    const record = trace.spans.get(span.spanId);
    if (!record) return;
    record.endedAt = span.endedAt ?? new Date().toISOString();
    const duration = durationBetween(record.startedAt, record.endedAt);
    if (duration !== undefined) record.durationMs = duration;
    const attributes = spanAttributes(span.spanData, options);
    // What was known at the start (agent, caller, depth) and folded in (attempts) wins.
    record.attributes = boundValue({
      ...attributes,
      ...spanContent(span.spanData, options),
      ...record.attributes,
    }) as Record<string, unknown>;
    if (record.kind === 'generation') {
      if (typeof record.attributes.model === 'string') record.name = record.attributes.model;
      const agent = this.#nearestAgent(trace, record.parentId);
      if (agent)
        addTokens(agent, Number(attributes.inputTokens ?? 0), Number(attributes.outputTokens ?? 0));
    }
    const error = spanError(span, options);
    if (error) record.error = error;
    this.#tell((listener) => listener.onSpanEnd?.(record, trace));
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    const open = this.#open.get(trace.traceId);
    if (!open) return;
    this.#open.delete(trace.traceId);
    const stored = toStoredTrace(open);
    const binding = open.binding;
    const store = binding.store ?? this.defaultStore;
    const work = (async () => {
      if (store && binding.export !== false && this.persist) {
        try {
          await store.saveTrace(stored);
        } catch (error) {
          getDefaultLogger().error(
            { err: error, code: (error as { code?: string }).code, traceId: stored.trace.traceId },
            `could not save trace ${stored.trace.traceId} to the ${store.kind} store`,
          );
        }
      }
      const shared = this.persist ? binding : { ...binding, export: false };
      for (const listener of this.#listeners) await listener.onTraceEnd?.(stored, shared);
    })();
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
    await work;
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
  }

  /** Waits for every finished trace to be saved and handed to listeners. */
  async forceFlush(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  /** Calls every listener; one that throws is logged and never breaks the run or the others. */
  #tell(call: (listener: TraceListener) => unknown): void {
    for (const listener of this.#listeners) {
      try {
        call(listener);
      } catch (error) {
        getDefaultLogger().error({ err: error }, 'a trace listener failed');
      }
    }
  }

  #nearestAgent(trace: OpenTrace, from: string | null): SpanRecord | undefined {
    let current = from ? trace.spans.get(from) : undefined;
    while (current && current.kind !== 'agent' && current.kind !== 'ensemble_agent')
      current = current.parentId ? trace.spans.get(current.parentId) : undefined;
    return current;
  }

  #fold(
    target: SpanRecord,
    span: SdkSpan<SpanData>,
    fold: 'attempt' | 'generation',
    options: { content: boolean; secrets: readonly string[] },
  ): void {
    const attributes = spanAttributes(span.spanData, options);
    if (fold === 'generation') {
      if (attributes.model) target.attributes.model = attributes.model;
      return;
    }
    const attempts = (target.attributes.attempts as Array<Record<string, unknown>>) ?? [];
    attempts.push(attributes);
    target.attributes.attempts = attempts;
    const first = attempts[0]!;
    Object.assign(target.attributes, {
      model: attributes.model ?? target.attributes.model,
      provider: attributes.provider,
      profile: attributes.profile,
      attempt: attributes.callAttempt ?? attempts.length,
      fallback: attributes.profile !== first.profile,
    });
  }
}

function toStoredTrace(open: OpenTrace): StoredTrace {
  const spans = [...open.spans.values()].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const endedAt = new Date().toISOString();
  let inputTokens = 0;
  let outputTokens = 0;
  for (const span of spans)
    if (span.kind === 'generation') {
      inputTokens += Number(span.attributes.inputTokens ?? 0);
      outputTokens += Number(span.attributes.outputTokens ?? 0);
    }
  const meta = open.metadata;
  const summary: TraceSummary = {
    traceId: open.traceId,
    name: open.name,
    ...(typeof meta.chatId === 'string' ? { chatId: meta.chatId } : {}),
    ...(typeof meta.runId === 'string' ? { runId: meta.runId } : {}),
    ...(typeof meta.agency === 'string' ? { agency: meta.agency } : {}),
    startedAt: open.startedAt,
    endedAt,
    durationMs: durationBetween(open.startedAt, endedAt) ?? 0,
    spanCount: spans.length,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
  return boundTrace({ schemaVersion: TRACE_SCHEMA_VERSION, trace: summary, spans });
}
