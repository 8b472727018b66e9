import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/server/inflight.js';
import { untilAborted } from '../../src/server/sse.js';

describe('untilAborted', () => {
  it('stops at once on abort, without waiting for a pending value, and closes the iterator', async () => {
    let closed = false;
    const never: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<number>>(() => undefined),
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const controller = new AbortController();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const value of untilAborted(never, controller.signal)) seen.push(value);
    })();
    controller.abort();
    await loop;
    expect(seen).toEqual([]);
    expect(closed).toBe(true);
  });

  it('passes every value through when not aborted', async () => {
    async function* three() {
      yield* [1, 2, 3];
    }
    const out: number[] = [];
    for await (const value of untilAborted(three(), new AbortController().signal)) out.push(value);
    expect(out).toEqual([1, 2, 3]);
  });
});

describe('InFlight', () => {
  it('tells when tracked work is done, or gives up after a timeout', async () => {
    const inflight = new InFlight();
    expect(await inflight.idle(10)).toBe(true);
    let finish!: () => void;
    void inflight.track(new Promise<void>((resolve) => (finish = resolve)));
    expect(inflight.size).toBe(1);
    expect(await inflight.idle(20)).toBe(false);
    const idle = inflight.idle(1000);
    finish();
    expect(await idle).toBe(true);
    void inflight.track(Promise.reject(new Error('x'))).catch(() => undefined);
    expect(await inflight.idle(100)).toBe(true);
  });
});
