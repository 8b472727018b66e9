/**
 * SDK spans as Colloquy spans: the SDK's `task` and `turn` spans are left out (their children move
 * up), `response` spans count as `generation`, a `send_message` function span gets its own kind,
 * and `custom` spans named `ensemble_run`/`ensemble_step`/`ensemble_agent` keep those kinds.
 * Every string is scrubbed of secrets; with `content: false` no message or tool text is kept.
 * @module
 */
import type { Span as SdkSpan, SpanData } from '@openai/agents-core';
import { redactSecrets, redactString } from '../redact.js';
import { responseSpanUsage } from '../sdk/responseSpanData.js';
import { boundValue, cutText, TRACE_TEXT_LIMIT } from '../stores/traceBounds.js';
import type { SpanKind } from '../stores/traceStore.js';

/** What to do with an SDK span: keep it as a kind, fold it into its parent, or skip it. */
export type SpanDisposition =
  { keep: true; kind: SpanKind; name: string } | { keep: false; fold?: 'attempt' | 'generation' };

const ENSEMBLE_KINDS = new Set(['ensemble_run', 'ensemble_step', 'ensemble_agent']);

/** How an SDK span shows up in Colloquy's trace tree. */
export function dispositionOf(data: SpanData): SpanDisposition {
  switch (data.type) {
    case 'task':
    case 'turn':
      return { keep: false };
    case 'agent':
      return { keep: true, kind: 'agent', name: data.name };
    case 'generation':
      return { keep: true, kind: 'generation', name: data.model ?? 'model' };
    case 'response':
      return { keep: true, kind: 'generation', name: 'response' };
    case 'function':
      return data.name === 'send_message'
        ? { keep: true, kind: 'send_message', name: 'send_message' }
        : { keep: true, kind: 'function', name: data.name };
    case 'handoff':
      return {
        keep: true,
        kind: 'handoff',
        name: `${data.from_agent ?? '?'} → ${data.to_agent ?? '?'}`,
      };
    case 'guardrail':
      return { keep: true, kind: 'guardrail', name: data.name };
    case 'custom':
      if (data.name === 'model_attempt') return { keep: false, fold: 'attempt' };
      if (ENSEMBLE_KINDS.has(data.name))
        return {
          keep: true,
          kind: data.name as SpanKind,
          name: String((data.data as { label?: unknown })?.label ?? data.name),
        };
      return { keep: true, kind: 'custom', name: data.name };
    default:
      return { keep: true, kind: 'custom', name: data.type };
  }
}

/** Options of {@link spanAttributes}. */
export interface SpanAttributeOptions {
  /** Keep message and tool text (default true). */
  content?: boolean;
  /** Exact secret values to scrub. */
  secrets?: readonly string[];
  /** Longest string kept, in characters (default 2000, `TRACE_TEXT_LIMIT`). */
  maxLength?: number;
}

function text(value: unknown, options: SpanAttributeOptions): string | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  const max = Math.min(options.maxLength ?? TRACE_TEXT_LIMIT, TRACE_TEXT_LIMIT);
  return redactString(cutText(raw, max), { secrets: options.secrets });
}

function recipientOf(input: string | undefined): string | undefined {
  if (!input) return undefined;
  try {
    const parsed = JSON.parse(input) as { recipient?: unknown };
    return typeof parsed.recipient === 'string' ? parsed.recipient : undefined;
  } catch {
    // Arguments that are not JSON: no recipient to show.
    return undefined;
  }
}

/** The attributes kept of an SDK span's data (content only when `options.content` is not false). */
export function spanAttributes(
  data: SpanData,
  options: SpanAttributeOptions = {},
): Record<string, unknown> {
  const content = options.content !== false;
  const out: Record<string, unknown> = {};
  switch (data.type) {
    case 'agent':
      out.agent = data.name;
      if (data.tools?.length) out.tools = [...data.tools];
      break;
    case 'generation':
    case 'response': {
      const generation = data as { model?: string; usage?: Record<string, unknown> };
      if (generation.model) out.model = generation.model;
      const usage = generation.usage ?? responseSpanUsage(data);
      const input = Number(usage?.input_tokens ?? usage?.inputTokens ?? 0);
      const output = Number(usage?.output_tokens ?? usage?.outputTokens ?? 0);
      if (usage) Object.assign(out, { inputTokens: input, outputTokens: output });
      break;
    }
    case 'function':
      out.tool = data.name;
      if (data.name === 'send_message') {
        const recipient = recipientOf(data.input);
        if (recipient) out.recipient = recipient;
      }
      if (content) {
        const input = text(data.input, options);
        const output = text(data.output, options);
        if (input) out.input = input;
        if (output) out.output = output;
      }
      break;
    case 'handoff':
      Object.assign(out, { from: data.from_agent, to: data.to_agent });
      break;
    case 'guardrail':
      out.triggered = data.triggered;
      break;
    case 'custom': {
      const fields = redactSecrets(data.data ?? {}, { secrets: options.secrets });
      for (const [key, value] of Object.entries(fields)) {
        if (!content && (key === 'input' || key === 'output' || key === 'message')) continue;
        out[key] = typeof value === 'string' ? text(value, options) : boundValue(value);
      }
      break;
    }
    default:
      break;
  }
  return out;
}

/** The error of an SDK span, scrubbed and cut like every other text (a 3 MB error keeps 2 KB). */
export function spanError(
  span: SdkSpan<SpanData>,
  options: SpanAttributeOptions = {},
): { message: string } | undefined {
  if (!span.error) return undefined;
  const message = String(span.error.message ?? '');
  return { message: redactString(cutText(message), { secrets: options.secrets }) };
}

/** Milliseconds between two ISO times (undefined when either is missing). */
export function durationBetween(start?: string | null, end?: string | null): number | undefined {
  if (!start || !end) return undefined;
  return Math.max(0, Date.parse(end) - Date.parse(start));
}
