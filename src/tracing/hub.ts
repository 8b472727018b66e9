/**
 * The one processor Colloquy registers with the SDK, through its public `setTraceProcessors`.
 * The {@link TracingHub} hands every trace and span to the recorder, then to the other
 * processors (OpenAI export, the user's), which get content-free copies of the spans of traces
 * whose content is off (`contentFilter.ts`).
 *
 * Other code may replace the SDK's processors: importing `@openai/agents` (the AI SDK adapter
 * does) installs the SDK's OpenAI exporter in place of everything. The SDK shuts a replaced
 * processor down (`test/sdk/setTraceProcessors.test.ts` checks that it still does), so the hub
 * knows it was dropped and {@link TracingHub.ensureInstalled} puts it back before the next trace.
 * No SDK object is patched, and no processor is recognised by its class name.
 * @module
 */
import {
  setTraceProcessors,
  setTracingDisabled,
  type Span as SdkSpan,
  type SpanData,
  type Trace,
  type TracingProcessor,
} from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';
import { innerProcessor, withoutContent } from './contentFilter.js';
import type { TraceRecorder } from './recorder.js';

function logFailure(error: unknown): void {
  getDefaultLogger().warn({ err: error }, 'a replaced trace processor failed to shut down');
}

/** Fans every trace and span out to the recorder and the (content-filtered) processors. */
export class TracingHub implements TracingProcessor {
  #recorder: TraceRecorder;
  #others: TracingProcessor[] = [];
  #installed = false;
  #started = false;

  constructor(recorder: TraceRecorder) {
    this.#recorder = recorder;
  }

  /** The recorder and the processors it feeds (each but the recorder content-filtered). */
  setProcessors(recorder: TraceRecorder, processors: readonly TracingProcessor[]): void {
    // Processors left out are shut down, as the SDK's own setTraceProcessors does.
    for (const old of this.#others)
      if (!processors.includes(innerProcessor(old))) void old.shutdown().catch(logFailure);
    this.#recorder = recorder;
    this.#others = processors.map((processor) =>
      withoutContent(processor, (traceId) => this.#recorder.keepsContent(traceId)),
    );
    if (this.#started) for (const processor of this.#others) processor.start?.();
  }

  /** Whether the hub is the SDK's processor (false once something replaced it). */
  get installed(): boolean {
    return this.#installed;
  }

  /** Makes the hub the SDK's only processor (replacing any other) and turns SDK tracing on. */
  install(): void {
    setTraceProcessors([this]); // shuts the replaced ones (the hub itself included) down
    setTracingDisabled(false);
    this.#installed = true;
  }

  /** Installs the hub again if another processor list replaced it. */
  ensureInstalled(): void {
    if (this.#installed) return;
    getDefaultLogger().debug(
      'the SDK trace processors were replaced: Colloquy registers its own again',
    );
    this.install();
  }

  #all(): TracingProcessor[] {
    return [this.#recorder, ...this.#others];
  }

  start(): void {
    this.#started = true;
    for (const processor of this.#all()) processor.start?.();
  }
  async onTraceStart(trace: Trace): Promise<void> {
    for (const processor of this.#all()) await processor.onTraceStart(trace);
  }
  async onTraceEnd(trace: Trace): Promise<void> {
    for (const processor of this.#all()) await processor.onTraceEnd(trace);
  }
  async onSpanStart(span: SdkSpan<SpanData>): Promise<void> {
    for (const processor of this.#all()) await processor.onSpanStart(span);
  }
  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    for (const processor of this.#all()) await processor.onSpanEnd(span);
  }

  /**
   * Called by the SDK when the processor list is replaced (and at exit): the hub is no longer
   * registered. Its processors are flushed, not stopped, so that it can be installed again.
   */
  async shutdown(): Promise<void> {
    this.#installed = false;
    await this.forceFlush();
  }

  async forceFlush(): Promise<void> {
    for (const processor of this.#all()) await processor.forceFlush();
  }
}
