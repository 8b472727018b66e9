/**
 * The events of a traced streamed model call, passed through one by one with a `generation`
 * span around them: the span opens at the first read, takes the usage (and, with content on,
 * the input and output) of `response_done`, records a failure, and ends with the stream, whether
 * it finishes, fails or is left early. A hand-made iterator, not an async generator: each event
 * costs one promise (the `then` on the wrapped stream's), not an async generator's three.
 * @module
 */
import { createGenerationSpan, resetCurrentSpan, setCurrentSpan } from '@openai/agents-core';
import type { ModelRequest, StreamEvent } from '@openai/agents-core';
import { requestTracingParent } from '../sdk/requestTracingParent.js';

/** What the span records of a `response_done` event (set by `tracedModel.ts`). */
export type OnResponseDone = (
  spanData: Record<string, unknown>,
  event: Extract<StreamEvent, { type: 'response_done' }>,
) => void;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** `open()`'s stream (the wrapped model's), as a generation span labelled `label`. */
export function tracedStream(
  open: () => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  label: string,
  onResponseDone: OnResponseDone,
): AsyncIterable<StreamEvent> {
  return { [Symbol.asyncIterator]: () => tracedEvents(open, request, label, onResponseDone) };
}

function tracedEvents(
  open: () => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  label: string,
  onResponseDone: OnResponseDone,
): AsyncIterator<StreamEvent> {
  let span: ReturnType<typeof createGenerationSpan> | undefined;
  let source: AsyncIterator<StreamEvent> | undefined;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    span?.end();
    resetCurrentSpan();
  };
  const recordFailure = (error: unknown): void => {
    span?.setError({ message: (error as Error)?.message ?? String(error) });
    close();
  };
  const fail = (error: unknown): never => {
    recordFailure(error);
    throw error;
  };
  const onResult = (result: IteratorResult<StreamEvent>): IteratorResult<StreamEvent> => {
    if (result.done) close();
    else if (result.value.type === 'response_done')
      onResponseDone(span!.spanData as unknown as Record<string, unknown>, result.value);
    return result;
  };
  return {
    next(): Promise<IteratorResult<StreamEvent>> {
      if (closed) return Promise.resolve(DONE);
      try {
        if (!source) {
          span = createGenerationSpan({ data: { model: label } }, requestTracingParent(request));
          span.start();
          try {
            setCurrentSpan(span);
          } catch (error) {
            // No trace to open the span in: the call fails, as its first read did before.
            closed = true;
            throw error;
          }
          source = open()[Symbol.asyncIterator]();
        }
        return source.next().then(onResult, fail);
      } catch (error) {
        if (!closed) recordFailure(error);
        return Promise.reject(error);
      }
    },
    async return(): Promise<IteratorResult<StreamEvent>> {
      // Left early (the consumer stopped reading): the wrapped stream is closed, then the span.
      if (closed || !source) {
        closed = true;
        return DONE;
      }
      try {
        await source.return?.();
      } finally {
        close();
      }
      return DONE;
    },
  };
}
