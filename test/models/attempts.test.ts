import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startAttempt, withAttemptListener } from '../../src/models/attempts.js';
import type { AttemptStart, ModelAttempt } from '../../src/models/attempts.js';

const start = (profile = 'fast', callAttempt = 1): AttemptStart => ({
  profile,
  provider: 'openai',
  model: 'gpt-test',
  attempt: 1,
  callAttempt,
  stream: false,
});

function capture() {
  const records: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void records.push(JSON.parse(line)) },
  });
  return { logger, records };
}

describe('startAttempt', () => {
  it('logs a success at info and a failure at warn, naming what comes next', () => {
    const { logger, records } = capture();
    startAttempt(start(), { logger }, false).finish({ outcome: 'success' });
    startAttempt(start('fast', 2), { logger }, false).finish({
      outcome: 'error',
      error: 'HTTP 503',
      errorKind: 'status',
      status: 503,
      next: 'fallback',
      fallbackTo: 'backup',
    });
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [30, 'model attempt succeeded'],
      [40, 'model attempt failed; next: fallback'],
    ]);
    expect(records[1]).toMatchObject({ profile: 'fast', status: 503, fallbackTo: 'backup' });
    expect(records[1]).not.toHaveProperty('type');
  });

  it('returns the attempt with its duration, and says fail when next is not given', () => {
    const { logger, records } = capture();
    const attempt = startAttempt(start(), { logger }, false).finish({
      outcome: 'error',
      error: 'x',
    });
    expect(attempt).toMatchObject({ type: 'model_attempt', profile: 'fast', outcome: 'error' });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(records[0]!.msg).toBe('model attempt failed; next: fail');
  });

  it('redacts secrets and key-like text from the error everywhere it goes', () => {
    const { logger, records } = capture();
    const seen: ModelAttempt[] = [];
    const attempt = startAttempt(
      start(),
      { logger, secrets: ['tenant-secret-9'], onAttempt: (a) => seen.push(a) },
      false,
    ).finish({ outcome: 'error', error: 'bad key sk-abcdefghijklmnopqrstuv for tenant-secret-9' });
    expect(attempt.error).toBe('bad key [REDACTED] for [REDACTED]');
    expect(seen[0]!.error).toBe(attempt.error);
    expect(JSON.stringify(records)).not.toMatch(/tenant-secret-9|sk-abcdefghijklmnopqrstuv/);
  });
});

describe('withAttemptListener', () => {
  it('reports attempts only to the listener of the async context they run in', async () => {
    const { logger } = capture();
    const first: string[] = [];
    const second: string[] = [];
    const attemptIn = async (profile: string) => {
      await new Promise((resolve) => setImmediate(resolve)); // both contexts are alive here
      startAttempt(start(profile), { logger }, false).finish({ outcome: 'success' });
    };
    await Promise.all([
      withAttemptListener(
        (a) => first.push(a.profile),
        () => attemptIn('one'),
      ),
      withAttemptListener(
        (a) => second.push(a.profile),
        () => attemptIn('two'),
      ),
    ]);
    expect(first).toEqual(['one']);
    expect(second).toEqual(['two']);
  });

  it('calls both the onAttempt option and the run listener, and nothing outside a run', () => {
    const { logger } = capture();
    const fromOption: number[] = [];
    const fromRun: number[] = [];
    withAttemptListener(
      (a) => fromRun.push(a.callAttempt),
      () =>
        startAttempt(
          start('p', 7),
          { logger, onAttempt: (a) => fromOption.push(a.callAttempt) },
          false,
        ).finish({
          outcome: 'success',
        }),
    );
    startAttempt(start('p', 8), { logger }, false).finish({ outcome: 'success' });
    expect(fromOption).toEqual([7]);
    expect(fromRun).toEqual([7]);
  });

  it('returns what the work returns', () => {
    expect(
      withAttemptListener(
        () => undefined,
        () => 42,
      ),
    ).toBe(42);
  });
});
