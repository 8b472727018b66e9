/**
 * The span a model call belongs under. The SDK runner passes it to the model in
 * `request._internal.tracingParent` (the turn or agent span), because a model's work may run
 * outside the async context that holds the current span. Models that open their own generation
 * span (Colloquy's `TracedModel`) parent it there. `test/sdk/requestTracingParent.test.ts` fails
 * if an SDK release moves it.
 * @module
 */
import type { createGenerationSpan, ModelRequest } from '@openai/agents-core';

/** The parent span or trace of a model call's generation span (undefined outside a trace). */
export type TracingParent = Parameters<typeof createGenerationSpan>[1];

/** The span (or trace) the runner wants a model call's span under. */
export function requestTracingParent(request: ModelRequest): TracingParent {
  return (request as { _internal?: { tracingParent?: TracingParent } })._internal?.tracingParent;
}
