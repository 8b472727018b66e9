/**
 * One schema of call options (`src/agency/callOptions.ts`): the HTTP body extends it, and a queued
 * call's job carries the options untouched, so every field (and one the queue code never heard
 * of) reaches the worker's `getResponse`.
 */
import { describe, expect, it } from 'vitest';
import { CALL_OPTION_KEYS, callOptionsSchema } from '../../src/agency/callOptions.js';
import { callData, resumeData } from '../../src/queue/queuedExecutor.js';
import { responseBodySchema } from '../../src/server/routes/agencies.js';
import { SAMPLE } from './callOptionsSample.js';

describe('the call-options schema', () => {
  it('names every option the sample sets, and checks them', () => {
    expect([...CALL_OPTION_KEYS].sort()).toEqual(Object.keys(SAMPLE).sort());
    expect(callOptionsSchema.parse(SAMPLE)).toEqual(SAMPLE);
    const bad = callOptionsSchema.safeParse({ userId: '' });
    expect(bad.success).toBe(false);
  });

  it('is what the HTTP body takes (userId included), beside the message', () => {
    const body = responseBodySchema.parse({ message: 'hi', userId: 'u1', chatId: 'c1' });
    expect(body).toEqual({ message: 'hi', userId: 'u1', chatId: 'c1' });
    expect(responseBodySchema.safeParse({ message: 'hi', userId: 'a\u0001' }).success).toBe(false);
  });

  it('travels in the job as it is, the signal left out', () => {
    const data = callData('echo', 'hi', { ...SAMPLE, signal: new AbortController().signal }, true);
    expect(data).toEqual({
      agency: 'echo',
      chatId: 'c-options',
      message: 'hi',
      stream: true,
      options: SAMPLE,
    });
    const resumed = resumeData(
      'echo',
      JSON.stringify({
        format: 'colloquy-pending-call',
        version: 1,
        chatId: 'c9',
        agent: 'Echo',
        runId: 'r',
        state: '{}',
      }),
      { userId: 'u2', approve: true },
    );
    expect(resumed.options).toEqual({ chatId: 'c9', userId: 'u2' });
    expect(resumed.resume).toMatchObject({ approve: true });
  });
});
