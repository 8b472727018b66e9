/**
 * What the SDK's OpenAI Responses model keeps on a `response` span: the request's input items in
 * `_input` and the whole API response (output items, usage) in `_response`. The fields are in the
 * SDK's `ResponseSpanData` type but named as internal, so every read and every removal of them is
 * here. `test/sdk/responseSpanData.test.ts` fails if an SDK release moves them.
 * @module
 */
import type { SpanData } from '@openai/agents-core';

type ResponseFields = { _input?: unknown; _response?: { output?: unknown; usage?: unknown } };

function fields(data: SpanData): ResponseFields {
  return data.type === 'response' ? (data as unknown as ResponseFields) : {};
}

/** The input items of a `response` span (undefined for other spans or when not kept). */
export function responseSpanInput(data: SpanData): unknown {
  return fields(data)._input;
}

/** The output items of a `response` span. */
export function responseSpanOutput(data: SpanData): unknown {
  return fields(data)._response?.output;
}

/** The token usage of a `response` span, as the API reported it (`input_tokens`, …). */
export function responseSpanUsage(data: SpanData): Record<string, unknown> | undefined {
  return fields(data)._response?.usage as Record<string, unknown> | undefined;
}

/** A copy of a `response` span's data without input or output, usage kept (others: as is). */
export function responseSpanWithoutContent(data: SpanData): SpanData {
  if (data.type !== 'response') return data;
  const {
    _input: _dropped,
    _response: response,
    ...rest
  } = data as unknown as ResponseFields & Record<string, unknown>;
  const usage = response?.usage;
  return {
    ...rest,
    ...(usage === undefined ? {} : { _response: { usage } }),
  } as unknown as SpanData;
}
