// Contract: the runner marks a repeated model call and passes the same modelSettings object.
import { Agent, Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { isRunnerManagedRetry } from '../../src/sdk/runnerManagedRetry.js';
import { fakeModel } from './fakeModel.js';

describe('sdk: isRunnerManagedRetry', () => {
  it('is false for the first call and true for the runner repeating it', async () => {
    const failure = Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    const model = fakeModel([{ error: failure }, { text: 'ok' }]);
    const agent = new Agent({
      name: 'Retry',
      model,
      modelSettings: {
        retry: { maxRetries: 1, policy: () => true, backoff: { initialDelayMs: 0, jitter: false } },
      },
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi');
    expect(result.finalOutput).toBe('ok');
    expect(model.requests).toHaveLength(2);
    const [first, second] = model.requests;
    expect(isRunnerManagedRetry(first!)).toBe(false);
    expect(isRunnerManagedRetry(second!)).toBe(true);
    expect(second!.modelSettings).toBe(first!.modelSettings); // FallbackModel keys calls by it
  });
});
