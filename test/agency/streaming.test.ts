import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { streamCall } from '../../src/agency/streaming.js';

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

  it('follows the caller’s signal and leaves a finished call alone', async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const stream = streamCall(caller.signal, async (given) => {
      signal = given;
      return result;
    });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'run_completed', result });
    await iterator.return!();
    expect(signal!.aborted).toBe(false);
    caller.abort(new Error('caller left'));
    expect(signal!.aborted).toBe(true);
  });
});
