/**
 * One schema of call options (`src/agency/callOptions.ts`): the HTTP body extends it, and a queued
 * call's job carries the options untouched, so every field (and one the queue code never heard
 * of) reaches the worker's `getResponse`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CALL_OPTION_KEYS,
  callOptionsSchema,
  type CallOptions,
} from '../../src/agency/callOptions.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { awaitCall, callData, resumeData } from '../../src/queue/queuedExecutor.js';
import { responseBodySchema } from '../../src/server/routes/agencies.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { startKit, type Kit } from './kit.js';

/** A value of every serialisable option; the first test fails when the schema gains a field. */
const SAMPLE: Required<CallOptions> = {
  recipient: 'Echo',
  chatId: 'c-options',
  userId: 'u1',
  context: { tenant: 't1' },
  attachments: [{ data: 'aGk=', mediaType: 'text/plain' }],
  outputType: { type: 'json_schema', name: 'r', strict: false, schema: {} as never },
  additionalInstructions: 'be brief',
  maxTurns: 3,
};

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

const skip = redisSkip();

describe.skipIf(Boolean(skip))(`a queued call${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });

  it('hands every option to the worker’s agency, a field unknown to the queue code included', async () => {
    kit = await startKit();
    const agency = kit.workers[0]!.registry.agencies.get('echo')!;
    const answer: AgencyResponse = {
      finalOutput: 'ok',
      chatId: 'x',
      lastAgent: 'Echo',
      newItems: [],
      usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    const seen = vi.spyOn(agency, 'getResponse').mockResolvedValue(answer);
    const chatId = uniqueName('opts');
    // A field added to the schema tomorrow: the queue code copies `options` without naming fields.
    const future = { ...SAMPLE, chatId, futureOption: { deep: [1, 2] } } as CallOptions;
    const data = { ...callData('echo', 'hi', { ...SAMPLE, chatId }, false), options: future };
    await expect(awaitCall(kit.client, data)).resolves.toMatchObject({ finalOutput: 'ok' });
    expect(seen).toHaveBeenCalledTimes(1);
    const [message, options] = seen.mock.calls[0]!;
    expect(message).toBe('hi');
    const { signal, ...rest } = options!;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(rest).toEqual(future);
  });
});
