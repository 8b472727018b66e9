import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { Usage } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { ModelAttempt } from '../../src/models/attempts.js';
import { chainRetryBudget, FallbackModel } from '../../src/models/fallbackModel.js';
import type { FallbackMember } from '../../src/models/fallbackModel.js';
import { isModelError } from '../../src/models/modelError.js';
import { attachedRetryDecision } from '../../src/models/retry.js';

/** A model that fails with the given errors, in order, then answers with its name. */
class FlakyModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(
    readonly name: string,
    readonly failures: unknown[] = [],
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    return { output: [], usage: new Usage(), responseId: this.name };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.requests.push(request);
    yield { type: 'response_started' };
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    yield { type: 'output_text_delta', delta: this.name };
  }
}

const status = (code: number, message = `HTTP ${code}`) =>
  Object.assign(new Error(message), { status: code });

function member(instance: FlakyModel, maxRetries = 0, settings?: object): FallbackMember {
  return {
    profile: instance.name,
    provider: 'test',
    model: `${instance.name}-model`,
    instance,
    maxRetries,
    ...(settings ? { settings } : {}),
  };
}

function setup(members: FallbackMember[], secrets: string[] = []) {
  const attempts: ModelAttempt[] = [];
  const model = new FallbackModel(members, {
    logger: createLogger({ level: 'silent' }),
    onAttempt: (attempt) => attempts.push(attempt),
    secrets,
  });
  return { model, attempts };
}

const request = (runnerRetries = 0, settings: object = {}): ModelRequest =>
  ({
    systemInstructions: '',
    input: 'hi',
    modelSettings: { ...settings, retry: { maxRetries: runnerRetries } },
    tools: [],
    handoffs: [],
    outputType: 'text',
    tracing: false,
  }) as unknown as ModelRequest;

/** The SDK repeating a call: same modelSettings object, marked as a runner-managed retry. */
const repeat = (first: ModelRequest): ModelRequest =>
  ({ ...first, _internal: { runnerManagedRetry: true } }) as ModelRequest;

describe('FallbackModel decisions', () => {
  it('needs at least one member', () => {
    expect(() => new FallbackModel([])).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('fails at once on a non-retryable status, without trying the fallback', async () => {
    const primary = new FlakyModel('primary', [status(400)]);
    const backup = new FlakyModel('backup');
    const { model, attempts } = setup([member(primary, 3), member(backup)]);
    const error = await model.getResponse(request(5)).catch((caught: unknown) => caught);
    expect(attachedRetryDecision(error)).toEqual({ retry: false });
    expect(isModelError(error)).toBe(true);
    expect(backup.requests).toHaveLength(0);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      outcome: 'error',
      errorKind: 'status',
      status: 400,
      next: 'fail',
      profile: 'primary',
    });
  });

  it('without SDK retries, falls back in line and reports both attempts', async () => {
    const primary = new FlakyModel('primary', [status(503)]);
    const backup = new FlakyModel('backup');
    const { model, attempts } = setup([member(primary, 2), member(backup)]);
    const response = await model.getResponse(request(0));
    expect(response.responseId).toBe('backup');
    expect(attempts.map((a) => [a.profile, a.outcome, a.next, a.callAttempt])).toEqual([
      ['primary', 'error', 'fallback', 1],
      ['backup', 'success', undefined, 2],
    ]);
    expect(attempts[0]!.fallbackTo).toBe('backup');
  });

  it('with SDK retries, asks for a retry until the profile is spent, then switches at once', async () => {
    const primary = new FlakyModel('primary', [status(429), status(429)]);
    const backup = new FlakyModel('backup');
    const { model, attempts } = setup([member(primary, 1), member(backup)]);
    const first = request(chainRetryBudget([{ maxRetries: 1 }, { maxRetries: 0 }]));

    const retry = await model.getResponse(first).catch((caught: unknown) => caught);
    expect(attachedRetryDecision(retry)).toEqual({
      retry: true,
      approveUnsafeReplay: false,
      reason: 'status',
    });
    const fallback = await model.getResponse(repeat(first)).catch((caught: unknown) => caught);
    expect(attachedRetryDecision(fallback)).toEqual({
      retry: true,
      delayMs: 0,
      approveUnsafeReplay: true,
      reason: 'fallback to backup',
    });
    expect((await model.getResponse(repeat(first))).responseId).toBe('backup');
    expect(attempts.map((a) => [a.profile, a.attempt, a.next ?? 'done'])).toEqual([
      ['primary', 1, 'retry'],
      ['primary', 2, 'fallback'],
      ['backup', 1, 'done'],
    ]);
  });

  it('starts over for a new call (a fresh modelSettings object)', async () => {
    const primary = new FlakyModel('primary', [status(500)]);
    const backup = new FlakyModel('backup');
    const { model } = setup([member(primary, 1), member(backup)]);
    const first = request(2);
    await model.getResponse(first).catch(() => undefined);
    expect((await model.getResponse(request(2))).responseId).toBe('primary');
  });

  it('fails with MODEL_ERROR naming the chain when the last profile is spent, redacting secrets', async () => {
    const primary = new FlakyModel('primary', [status(502, 'bad gateway key=tenant-secret-1')]);
    const backup = new FlakyModel('backup', [status(503, 'unavailable key=tenant-secret-1')]);
    const { model, attempts } = setup([member(primary), member(backup)], ['tenant-secret-1']);
    const error = (await model
      .getResponse(request(0))
      .catch((caught: unknown) => caught)) as Error & {
      code?: string;
    };
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.message).toContain(
      'Model profile "backup" (test backup-model) failed after 2 attempt(s)',
    );
    expect(error.message).toContain('over the chain primary -> backup');
    expect(error.message).toContain('add a fallback_model_profile');
    expect(error.message).not.toContain('tenant-secret-1');
    expect(attachedRetryDecision(error)).toEqual({ retry: false });
    expect(attempts.map((a) => a.next)).toEqual(['fallback', 'fail']);
    expect(attempts.every((a) => !a.error?.includes('tenant-secret-1'))).toBe(true);
  });

  it('names a refused address in the exhausted message', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 9,
    });
    const only = new FlakyModel('only', [new TypeError('fetch failed', { cause: refused })]);
    const { model } = setup([member(only)]);
    await expect(model.getResponse(request(0))).rejects.toThrow(
      /fetch failed \(connection refused by 127\.0\.0\.1:9: is the server running\?\)/,
    );
  });

  it("applies a fallback's own settings, never the primary's", async () => {
    const primary = new FlakyModel('primary', [status(500)]);
    const backup = new FlakyModel('backup');
    const { model } = setup([
      member(primary, 0, { temperature: 0.1 }),
      member(backup, 0, { temperature: 0.9 }),
    ]);
    await model.getResponse(request(0, { maxTokens: 50 }));
    expect(primary.requests[0]!.modelSettings).toMatchObject({ maxTokens: 50 });
    expect(primary.requests[0]!.modelSettings.temperature).toBeUndefined();
    expect(backup.requests[0]!.modelSettings).toMatchObject({ maxTokens: 50, temperature: 0.9 });
  });

  it('stops instead of falling back in line when the call was aborted', async () => {
    const controller = new AbortController();
    const primary = new FlakyModel('primary', [status(503)]);
    const backup = new FlakyModel('backup');
    const { model } = setup([member(primary), member(backup)]);
    const aborting = { ...request(0), signal: controller.signal } as ModelRequest;
    const pending = model.getResponse(aborting);
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(attachedRetryDecision(error)).toEqual({ retry: false });
    expect(backup.requests).toHaveLength(0);
  });
});

describe('FallbackModel streaming', () => {
  it('falls back before anything was emitted', async () => {
    const primary = new FlakyModel('primary');
    const backup = new FlakyModel('backup');
    primary.getStreamedResponse = (): AsyncIterable<StreamEvent> => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(status(503)) }),
    });
    const { model } = setup([member(primary), member(backup)]);
    const events: StreamEvent[] = [];
    for await (const event of model.getStreamedResponse(request(0))) events.push(event);
    expect(events).toContainEqual({ type: 'output_text_delta', delta: 'backup' });
  });

  it('fails rather than mixing two answers once events were emitted', async () => {
    const primary = new FlakyModel('primary', [status(503)]);
    const backup = new FlakyModel('backup');
    const { model, attempts } = setup([member(primary), member(backup)]);
    const events: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of model.getStreamedResponse(request(3))) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(events).toEqual([{ type: 'response_started' }]);
    expect(attachedRetryDecision(error)).toEqual({ retry: false });
    expect(backup.requests).toHaveLength(0);
    expect(attempts[0]).toMatchObject({ stream: true, next: 'fail' });
  });
});

describe('chainRetryBudget', () => {
  it('counts every attempt of every member, minus the first', () => {
    expect(chainRetryBudget([{ maxRetries: 0 }])).toBe(0);
    expect(chainRetryBudget([{ maxRetries: 3 }])).toBe(3);
    expect(chainRetryBudget([{ maxRetries: 2 }, { maxRetries: 1 }, { maxRetries: 0 }])).toBe(5);
  });
});
