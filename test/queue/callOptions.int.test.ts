/**
 * A queued call's job carries the call options untouched (see `callOptions.test.ts`), so every
 * field, and one the queue code never heard of, reaches the worker's `getResponse`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CallOptions } from '../../src/agency/callOptions.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { awaitCall, callData } from '../../src/queue/queuedExecutor.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { SAMPLE } from './callOptionsSample.js';
import { startKit, type Kit } from './kit.js';
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
