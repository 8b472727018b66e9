import { afterAll, describe, expect, it } from 'vitest';
import { getCurrentSpan, withTrace } from '@openai/agents-core';
import type { ModelRequest, StreamEvent } from '@openai/agents-core';
import { tracedStream } from '../../src/models/tracedStream.js';
import { setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

const request = { input: 'hi', tracing: true } as unknown as ModelRequest;
const done: StreamEvent = {
  type: 'response_done',
  response: {
    id: 'r',
    usage: { requests: 1, inputTokens: 2, outputTokens: 3, totalTokens: 5 },
    output: [],
  },
};

/** A stream of `events`, failing after them with `error` when given; tells when it was closed. */
function source(events: StreamEvent[], error?: Error) {
  const state = { closed: false };
  async function* run(): AsyncIterable<StreamEvent> {
    try {
      for (const event of events) yield event;
      if (error) throw error;
    } finally {
      state.closed = true;
    }
  }
  return { state, open: () => run() };
}

type SeenSpan = { endedAt: string | null; error: unknown; spanData: Record<string, unknown> };

describe('tracedStream', () => {
  setupTracing({ env: {} });

  it('passes the events through in a span that takes the usage and ends with the stream', async () => {
    const { open } = source([{ type: 'output_text_delta', delta: 'a' }, done]);
    await withTrace('t', async () => {
      const outer = getCurrentSpan();
      let span: SeenSpan | undefined;
      const seen: string[] = [];
      const stream = tracedStream(open, request, 'm', (data, event) => {
        data.usage = event.response.usage.inputTokens;
      });
      for await (const event of stream) {
        span ??= getCurrentSpan() as unknown as SeenSpan;
        seen.push(event.type);
      }
      expect(seen).toEqual(['output_text_delta', 'response_done']);
      expect(span!.spanData).toMatchObject({ type: 'generation', model: 'm', usage: 2 });
      expect(span!.endedAt).not.toBeNull();
      expect(getCurrentSpan()).toBe(outer);
    });
  });

  it('records a failure on the span, rethrows it and ends the span', async () => {
    const { open } = source([{ type: 'response_started' }], new Error('boom'));
    await withTrace('t', async () => {
      let span: SeenSpan | undefined;
      const stream = tracedStream(open, request, 'm', () => undefined);
      await expect(
        (async () => {
          for await (const _ of stream) span ??= getCurrentSpan() as unknown as SeenSpan;
        })(),
      ).rejects.toThrow('boom');
      expect(span!.error).toMatchObject({ message: 'boom' });
      expect(span!.endedAt).not.toBeNull();
    });
  });

  it('left early, closes the wrapped stream and ends the span', async () => {
    const { open, state } = source([{ type: 'response_started' }, done]);
    await withTrace('t', async () => {
      const outer = getCurrentSpan();
      let span: SeenSpan | undefined;
      for await (const _ of tracedStream(open, request, 'm', () => undefined)) {
        span = getCurrentSpan() as unknown as SeenSpan;
        break;
      }
      expect(state.closed).toBe(true);
      expect(span!.endedAt).not.toBeNull();
      expect(getCurrentSpan()).toBe(outer);
    });
  });
});
