/**
 * A model call as a `generation` span. The OpenAI and AI-SDK models of the Agents SDK open their
 * own generation spans; other models (scripted, replay, profile fallbacks) do not, so an agency
 * wraps them in {@link TracedModel} and every model call shows up in the trace with its model,
 * tokens and latency. Attempts of a profile model (`model_attempt` spans) nest under it.
 * @module
 */
import { withGenerationSpan } from '@openai/agents-core';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { requestTracingParent } from '../sdk/requestTracingParent.js';
import { opensOwnGenerationSpans } from '../sdk/selfTracedModel.js';
import { tracedStream } from './tracedStream.js';

const TRACED = Symbol('colloquy.tracedModel');

/** A short label of a model object: `scripted`, `fallback`, or its class name. */
export function modelLabel(model: Model): string {
  const named = (model as { name?: unknown; model?: unknown }).name;
  if (typeof named === 'string' && named !== '') return named;
  const className = model.constructor?.name ?? 'model';
  return className.replace(/Model$/, '').replace(/^./, (c) => c.toLowerCase()) || 'model';
}

function usageData(usage: { inputTokens?: number; outputTokens?: number } | undefined) {
  return { input_tokens: usage?.inputTokens ?? 0, output_tokens: usage?.outputTokens ?? 0 };
}

/**
 * Puts a call's input items, instructions, settings and output on its generation span, unless
 * the run traces without data (`request.tracing === 'enabled_without_data'`); the trace recorder
 * keeps them only when its content is on.
 */
function withContent(
  data: { input?: unknown; output?: unknown; model_config?: unknown },
  request: ModelRequest,
  output: unknown,
): void {
  if (request.tracing !== true) return;
  data.input =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  data.output = output;
  data.model_config = {
    ...(request.modelSettings ?? {}),
    ...(request.systemInstructions ? { instructions: request.systemInstructions } : {}),
  };
}

/** Wraps a model so that each call is a generation span (see the module comment). */
export class TracedModel implements Model {
  readonly [TRACED] = true;
  readonly inner: Model;
  readonly label: string;

  constructor(inner: Model, label = modelLabel(inner)) {
    this.inner = inner;
    this.label = label;
  }

  get supportsPromptModelSelection(): boolean | undefined {
    return this.inner.supportsPromptModelSelection;
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    // Untraced: the wrapped model's own promise, without one more async frame.
    if (!request.tracing) return this.inner.getResponse(request);
    return withGenerationSpan(
      async (span) => {
        const response = await this.inner.getResponse(request);
        span.spanData.usage = usageData(response.usage);
        withContent(span.spanData, request, response.output);
        return response;
      },
      { data: { model: this.label } },
      requestTracingParent(request),
    );
  }

  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    // Untraced: the wrapped model's own stream, not re-yielded event by event.
    if (!request.tracing) return this.inner.getStreamedResponse(request);
    return tracedStream(
      () => this.inner.getStreamedResponse(request),
      request,
      this.label,
      (data, event) => {
        data.usage = usageData(event.response.usage);
        withContent(data, request, event.response.output);
      },
    );
  }

  getRetryAdvice(
    ...args: Parameters<NonNullable<Model['getRetryAdvice']>>
  ): ReturnType<NonNullable<Model['getRetryAdvice']>> {
    return this.inner.getRetryAdvice?.(...args);
  }
}

/** The model wrapped in {@link TracedModel}, unless it traces itself or is wrapped already. */
export function tracedModel(model: Model): Model {
  if ((model as { [TRACED]?: boolean })[TRACED]) return model;
  if (opensOwnGenerationSpans(model)) return model;
  return new TracedModel(model);
}
