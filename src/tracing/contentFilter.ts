/**
 * Content off means off for every trace processor, not only the recorder: with
 * `COLLOQUY_TRACE_CONTENT=off` (or an agency's `traceContent: false`), the SDK spans handed to any
 * other processor (OpenAI's exporter, the SDK's batch exporter, a user's) carry no message, model
 * or tool text. {@link withoutContent} wraps such a processor: for a trace whose content is off it
 * gets a copy of each span with the text fields emptied (the SDK's span itself is left as it is,
 * since the recorder and the run still use it). Texts it keeps are cut at 2,000 characters.
 * @module
 */
import { Span, type SpanData, type Trace, type TracingProcessor } from '@openai/agents-core';
import { responseSpanWithoutContent } from '../sdk/responseSpanData.js';
import { cutText } from '../stores/traceBounds.js';

/** Says whether trace `traceId` keeps message and tool text (the recorder knows each trace's). */
export type KeepsContent = (traceId: string) => boolean;

const WRAPPED = Symbol.for('colloquy.tracing.contentFilter');

/** What replaces a removed text. */
export const CONTENT_REMOVED = '[content off]';

/**
 * `data` without message, model or tool text (a new object): a tool's arguments and output, a
 * model call's input, output and instructions (a `response` span's input and output items; usage
 * is kept), speech and transcription text, and the text fields of custom spans.
 */
export function stripSpanData(data: SpanData): SpanData {
  const copy = { ...data } as Record<string, unknown>;
  switch (data.type) {
    case 'function':
      copy.input = CONTENT_REMOVED;
      copy.output = CONTENT_REMOVED;
      delete copy.mcp_data;
      break;
    case 'generation': {
      delete copy.input;
      delete copy.output;
      const config = data.model_config as Record<string, unknown> | undefined;
      if (config && 'instructions' in config) {
        const { instructions: _instructions, ...settings } = config;
        copy.model_config = settings;
      }
      break;
    }
    case 'agent': // the SDK's agent spans carry no text; a processor's own fields may
    case 'speech_group':
      delete copy.input;
      delete copy.output;
      break;
    case 'response':
      return responseSpanWithoutContent(data);
    case 'transcription':
    case 'speech':
      delete copy.input;
      delete copy.output;
      break;
    case 'custom': {
      const fields = { ...((data.data ?? {}) as Record<string, unknown>) };
      for (const key of ['input', 'output', 'message', 'messages', 'prompt', 'text', 'task'])
        delete fields[key];
      copy.data = fields;
      break;
    }
    default:
      break;
  }
  return copy as unknown as SpanData;
}

/** A copy of `span` with its data stripped (see {@link stripSpanData}) and its error cut. */
export function contentFreeSpan(span: Span<SpanData>): Span<SpanData> {
  const error = span.error;
  return new Span(
    {
      traceId: span.traceId,
      spanId: span.spanId,
      ...(span.parentId ? { parentId: span.parentId } : {}),
      data: stripSpanData(span.spanData),
      ...(span.traceMetadata ? { traceMetadata: span.traceMetadata } : {}),
      ...(span.startedAt ? { startedAt: span.startedAt } : {}),
      ...(span.endedAt ? { endedAt: span.endedAt } : {}),
      ...(error ? { error: { message: cutText(String(error.message ?? '')) } } : {}),
      ...(span.tracingApiKey ? { tracingApiKey: span.tracingApiKey } : {}),
    },
    NO_PROCESSOR,
  );
}

const NO_PROCESSOR: TracingProcessor = {
  async onTraceStart() {},
  async onTraceEnd() {},
  async onSpanStart() {},
  async onSpanEnd() {},
  async shutdown() {},
  async forceFlush() {},
};

/**
 * `processor`, fed content-free copies of the spans of traces whose content is off. Wrapping a
 * wrapped processor returns it as it is.
 */
export function withoutContent(
  processor: TracingProcessor,
  keepsContent: KeepsContent,
): TracingProcessor {
  if ((processor as { [WRAPPED]?: boolean })[WRAPPED]) return processor;
  const view = (span: Span<SpanData>): Span<SpanData> =>
    keepsContent(span.traceId) ? span : contentFreeSpan(span);
  const wrapped: TracingProcessor & { [WRAPPED]: boolean; readonly inner: TracingProcessor } = {
    [WRAPPED]: true,
    inner: processor,
    start: processor.start?.bind(processor),
    onTraceStart: (trace: Trace) => processor.onTraceStart(trace),
    onTraceEnd: (trace: Trace) => processor.onTraceEnd(trace),
    onSpanStart: (span) => processor.onSpanStart(view(span)),
    onSpanEnd: (span) => processor.onSpanEnd(view(span)),
    shutdown: (timeout?: number) => processor.shutdown(timeout),
    forceFlush: () => processor.forceFlush(),
  };
  return wrapped;
}

/** The processor a {@link withoutContent} wrapper feeds (else `processor` itself). */
export function innerProcessor(processor: TracingProcessor): TracingProcessor {
  return (processor as { inner?: TracingProcessor }).inner ?? processor;
}
