/**
 * The content a trace keeps of each span kind beyond `send_message`, when content is on: a
 * model call's input items, instructions, settings and output; a tool's arguments and output; an
 * agent's input and final output (when the span carries them). Every text is scrubbed of secrets
 * and cut at the documented limit (2,000 characters by default), as `docs/observability.md` says.
 * With content off, nothing is kept.
 * @module
 */
import type { SpanData } from '@openai/agents-core';
import { redactString } from '../redact.js';
import { responseSpanInput, responseSpanOutput } from '../sdk/responseSpanData.js';

/** Options of {@link spanContent}. */
export interface SpanContentOptions {
  /** Keep content (default true). */
  content?: boolean;
  /** Exact secret values to scrub. */
  secrets?: readonly string[];
  /** Longest text kept, in characters (default 2000). */
  maxLength?: number;
}

/** `value` as text (JSON unless a string), cut at `maxLength` and scrubbed. */
export function cutContent(value: unknown, options: SpanContentOptions = {}): string | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  if (raw === undefined || raw === '' || raw === '[]' || raw === '{}') return undefined;
  const max = options.maxLength ?? 2000;
  const clipped = raw.length > max ? `${raw.slice(0, max)}…` : raw;
  return redactString(clipped, { secrets: options.secrets });
}

/** The content attributes of a span's data: `input`, `output`, `instructions`, `settings`, `arguments`. */
export function spanContent(
  data: SpanData,
  options: SpanContentOptions = {},
): Record<string, string> {
  if (options.content === false) return {};
  const out: Record<string, string> = {};
  const keep = (key: string, value: unknown) => {
    const text = cutContent(value, options);
    if (text !== undefined) out[key] = text;
  };
  const raw = data as unknown as Record<string, unknown>;
  switch (data.type) {
    case 'generation': {
      const { instructions, ...settings } = (raw.model_config ?? {}) as Record<string, unknown>;
      keep('input', raw.input);
      keep('instructions', instructions);
      keep('settings', settings);
      keep('output', raw.output);
      break;
    }
    case 'response':
      keep('input', responseSpanInput(data));
      keep('output', responseSpanOutput(data));
      break;
    case 'function':
      keep('arguments', raw.input);
      break;
    case 'agent':
      keep('input', raw.input);
      keep('output', raw.output);
      break;
    default:
      break;
  }
  return out;
}
