/** CallTracker: calls and streams are cancellable by chat while they run, and forgotten after. */
import { describe, expect, it } from 'vitest';
import { CallTracker } from '../../src/server/callTracker.js';

/** A stream that yields `n` numbers, then waits for its signal; records how it ended. */
function source(n: number, ended: string[]) {
  return async function* (signal: AbortSignal): AsyncGenerator<number> {
    try {
      for (let i = 0; i < n; i++) yield i;
      signal.throwIfAborted();
      await new Promise<void>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
    } finally {
      ended.push(signal.aborted ? 'aborted' : 'closed');
    }
  };
}

describe('CallTracker', () => {
  it('tracks a stream from its first read; cancel aborts it; it is forgotten when it ends', async () => {
    const tracker = new CallTracker();
    const ended: string[] = [];
    const stream = tracker.trackStream('a', { chatId: 'c1' }, source(2, ended));
    expect(tracker.size).toBe(0); // nothing runs before the first read
    const seen: number[] = [];
    const reading = (async () => {
      for await (const value of stream) {
        seen.push(value);
        if (seen.length === 2) expect(tracker.cancel('a', 'c1', 'stop')).toBe(1);
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: 'ABORTED', message: 'stop' });
    expect(seen).toEqual([0, 1]);
    expect(ended).toEqual(['aborted']);
    expect(tracker.size).toBe(0);
  });

  it('a reader leaving early closes the source and forgets the stream', async () => {
    const tracker = new CallTracker();
    const ended: string[] = [];
    for await (const value of tracker.trackStream('a', { chatId: 'c1' }, source(3, ended))) {
      expect(tracker.size).toBe(1);
      if (value === 1) break;
    }
    expect(ended).toEqual(['closed']);
    expect(tracker.size).toBe(0);
    expect(tracker.cancel('a', 'c1')).toBe(0);
  });

  it("the caller's signal aborts the call, already aborted or later, and is let go after", async () => {
    const tracker = new CallTracker();
    const early = new AbortController();
    early.abort(new Error('gone before'));
    await expect(
      tracker.track('a', { chatId: 'c1', signal: early.signal }, async (signal) => {
        expect(signal.aborted).toBe(true);
        throw signal.reason as Error;
      }),
    ).rejects.toThrow('gone before');

    const later = new AbortController();
    const call = tracker.track('a', { chatId: 'c2', signal: later.signal }, (signal) => {
      return new Promise<string>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
    });
    later.abort(new Error('gone later'));
    await expect(call).rejects.toThrow('gone later');
    expect(tracker.size).toBe(0);

    // A finished call no longer listens to the caller's signal.
    const kept = new AbortController();
    let aborted = false;
    await tracker.track('a', { chatId: 'c3', signal: kept.signal }, async (signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return 'ok';
    });
    kept.abort();
    expect(aborted).toBe(false);
  });

  it("runs a call on the caller's own controller when given one: cancel aborts it, no second signal", async () => {
    const tracker = new CallTracker();
    const own = new AbortController();
    const seen: AbortSignal[] = [];
    const call = tracker.track(
      'a',
      { chatId: 'c1', signal: own.signal, controller: own },
      (signal) => {
        seen.push(signal);
        return new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
        );
      },
    );
    expect(seen[0]).toBe(own.signal); // the caller's signal itself, not one linked to it
    expect(tracker.size).toBe(1);
    expect(tracker.cancel('a', 'c1', 'stop')).toBe(1);
    await expect(call).rejects.toMatchObject({ code: 'ABORTED', message: 'stop' });
    expect(own.signal.aborted).toBe(true);
    expect(tracker.size).toBe(0);

    // A controller that is not the signal's is ignored: the call gets a controller of its own.
    const other = new AbortController();
    const outer = new AbortController();
    await tracker.track(
      'a',
      { chatId: 'c2', signal: outer.signal, controller: other },
      async (signal) => {
        expect(signal).not.toBe(outer.signal);
        expect(signal).not.toBe(other.signal);
      },
    );
    expect(tracker.cancel('a', 'c2')).toBe(0);
    expect(other.signal.aborted).toBe(false);
  });
});
