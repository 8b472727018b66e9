/**
 * Export to OpenAI's traces dashboard. The SDK's OpenAI exporter is loaded on first use (it comes
 * with `@openai/agents-openai`), and traces whose metadata says `colloquy.export: false` (an
 * agency with `tracing: false`) are left out.
 * @module
 */
import type { Span as SdkSpan, SpanData, Trace, TracingProcessor } from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';

type Item = Trace | SdkSpan<SpanData>;
type Exporter = { export(items: Item[]): Promise<void> };

/** Sends each finished, exportable trace and its spans to OpenAI in one batch. */
export class OpenAIExportProcessor implements TracingProcessor {
  readonly #items = new Map<string, Item[]>();
  #exporter: Promise<Exporter> | undefined;

  async onTraceStart(trace: Trace): Promise<void> {
    if (trace.metadata?.['colloquy.export'] !== false) this.#items.set(trace.traceId, [trace]);
  }
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: SdkSpan<SpanData>): Promise<void> {
    this.#items.get(span.traceId)?.push(span);
  }
  async onTraceEnd(trace: Trace): Promise<void> {
    const items = this.#items.get(trace.traceId);
    this.#items.delete(trace.traceId);
    if (!items) return;
    this.#exporter ??= import('@openai/agents-openai').then(
      ({ OpenAITracingExporter }): Exporter => new OpenAITracingExporter(),
    );
    try {
      const exporter: Exporter = await this.#exporter;
      await exporter.export(items);
    } catch (error) {
      getDefaultLogger().warn({ err: error }, 'could not export a trace to OpenAI');
    }
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}
