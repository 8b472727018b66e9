import { describe, expect, it } from 'vitest';
import type { Model, ModelRequest, StreamEvent } from '@openai/agents-core';
import { TracedModel } from '../../src/models/tracedModel.js';
import { journaledModel } from '../../src/agency/journal/journaledModel.js';

/** A model whose stream is one known object, so a wrapper passing it through is visible. */
function fixedStreamModel(): { model: Model; stream: AsyncIterable<StreamEvent> } {
  const events: StreamEvent[] = [{ type: 'response_started' }];
  const stream: AsyncIterable<StreamEvent> = {
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
  };
  const model: Model = {
    getResponse: () => Promise.reject(new Error('not used')),
    getStreamedResponse: () => stream,
  };
  return { model, stream };
}

const request = (tracing: ModelRequest['tracing']): ModelRequest =>
  ({
    input: 'hi',
    modelSettings: {},
    tools: [],
    outputType: 'text',
    handoffs: [],
    tracing,
  }) as ModelRequest;

describe('streamed model calls through the wrappers', () => {
  it('an untraced call gets the wrapped model stream itself, not a re-yielding copy', () => {
    const { model, stream } = fixedStreamModel();
    const traced = new TracedModel(model);
    expect(traced.getStreamedResponse(request(false))).toBe(stream);
  });

  it('outside a journaled call the journaled model hands back the wrapped stream', () => {
    const { model, stream } = fixedStreamModel();
    expect(journaledModel(model).getStreamedResponse(request(false))).toBe(stream);
  });
});
