import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { feedEvents, isEventFeed, streamCall } from '../../src/agency/streaming.js';

const started = (agent: string) =>
  ({ type: 'agent_run_started', agent }) as unknown as AgencyStreamEvent;
const result = { text: 'done' } as unknown as AgencyResponse;

/** Resolves when the signal aborts, with its reason. */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) =>
    signal.addEventListener('abort', () => resolve(signal.reason), { once: true }),
  );

describe('streamCall', () => {
  it('starts the call at once, keeps events until read, and ends with run_completed', async () => {
    let ran = false;
    const stream = streamCall(undefined, async (_signal, emit) => {
      ran = true;
      emit(started('A'));
      emit(started('B'));
      return result;
    });
    expect(ran).toBe(true);
    await new Promise((resolve) => setImmediate(resolve)); // the call has finished unread
    const seen: AgencyStreamEvent[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen).toEqual([started('A'), started('B'), { type: 'run_completed', result }]);
  });

  it('gives every event and the error event before throwing the error', async () => {
    const stream = streamCall(undefined, async (_signal, emit) => {
      emit(started('A'));
      throw new TypeError('model down');
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    ).rejects.toThrow(TypeError);
    expect(seen).toEqual(['agent_run_started', 'error']);
  });

  it('aborts the call when the consumer stops, even before its first read', async () => {
    let signal: AbortSignal | undefined;
    const stream = streamCall(undefined, (given, emit) => {
      signal = given;
      emit(started('A'));
      return aborted(given).then(() => Promise.reject(new Error('aborted')));
    });
    const reason = aborted(signal!);
    await stream[Symbol.asyncIterator]().return!();
    expect(String(await reason)).toMatch(/stopped reading/);
    // The call's failure after the consumer left is not thrown anywhere.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('follows the caller’s signal while the call runs and leaves a finished call alone', async () => {
    const caller = new AbortController();
    const running = streamCall(caller.signal, (given) =>
      aborted(given).then((reason) => Promise.reject(reason as Error)),
    );
    caller.abort(new Error('caller left'));
    await expect(
      (async () => {
        for await (const _event of running) void _event;
      })(),
    ).rejects.toThrow('caller left');

    const later = new AbortController();
    let signal: AbortSignal | undefined;
    const stream = streamCall(later.signal, async (given) => {
      signal = given;
      return result;
    });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'run_completed', result });
    await iterator.return!();
    expect(signal!.aborted).toBe(false);
    // The link to the caller's signal ends with the call (no listener left on a long-lived signal).
    later.abort(new Error('caller left'));
    expect(signal!.aborted).toBe(false);
  });
});

describe('streamCall feed', () => {
  it('hands waiting events first, then each event as it is emitted, and resolves at the end', async () => {
    let emitLater: ((event: AgencyStreamEvent) => void) | undefined;
    let finish: (() => void) | undefined;
    const stream = streamCall(undefined, (_signal, emit) => {
      emit(started('A'));
      emitLater = emit;
      return new Promise<AgencyResponse>((resolve) => (finish = () => resolve(result)));
    });
    expect(isEventFeed(stream)).toBe(true);
    const seen: AgencyStreamEvent[] = [];
    const fed = stream.feed((event) => seen.push(event));
    expect(seen).toEqual([started('A')]);
    emitLater!(started('B'));
    // Synchronously: no promise between the call's emit and the sink.
    expect(seen).toEqual([started('A'), started('B')]);
    finish!();
    await fed;
    expect(seen).toEqual([started('A'), started('B'), { type: 'run_completed', result }]);
  });

  it('ends with the error event, then rejects with the error', async () => {
    const stream = streamCall(undefined, async (_signal, emit) => {
      emit(started('A'));
      await null;
      throw new TypeError('model down');
    });
    const seen: string[] = [];
    await expect(stream.feed((event) => seen.push(event.type))).rejects.toThrow(TypeError);
    expect(seen).toEqual(['agent_run_started', 'error']);
  });

  it('feedEvents iterates a stream that cannot feed, closing it when the signal aborts', async () => {
    let closed = false;
    const controller = new AbortController();
    const events: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => {
        let n = 0;
        return {
          next: async () => {
            if (n === 2) controller.abort();
            return { done: false, value: n++ };
          },
          return: async () => {
            closed = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const seen: number[] = [];
    await feedEvents(events, (n) => seen.push(n), controller.signal);
    expect(seen).toEqual([0, 1]);
    expect(closed).toBe(true);
  });
});
