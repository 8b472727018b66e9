import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import {
  DEFAULT_OPERATION_TIMEOUT_MS,
  operationTimeout,
  withDeadline,
} from '../../src/stores/deadline.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import { RedisStore } from '../../src/stores/redis.js';

describe('operation deadlines', () => {
  it('passes a result or an error through when the work is in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 100, () => new Error('late'))).resolves.toBe(7);
    await expect(
      withDeadline(Promise.reject(new Error('own')), 100, () => new Error('late')),
    ).rejects.toThrow('own');
  });

  it('fails with the timeout error once the time passes, and 0 means no limit', async () => {
    const never = new Promise<number>(() => undefined);
    const started = Date.now();
    await expect(withDeadline(never, 50, () => new Error('late'))).rejects.toThrow('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const slow = new Promise<number>((resolve) => setTimeout(() => resolve(1), 30));
    await expect(withDeadline(slow, 0, () => new Error('late'))).resolves.toBe(1);
  });

  it('checks the option and defaults to 10 s', () => {
    expect(operationTimeout('S', undefined)).toBe(DEFAULT_OPERATION_TIMEOUT_MS);
    expect(DEFAULT_OPERATION_TIMEOUT_MS).toBe(10_000);
    expect(operationTimeout('S', 0)).toBe(0);
    expect(() => operationTimeout('RedisStore', -1)).toThrow(ConfigError);
    expect(() => new RedisStore({ operationTimeoutMs: 1.5 })).toThrow(/operationTimeoutMs/);
    expect(() => new PostgresStore({ operationTimeoutMs: -5 })).toThrow(/PostgresStore/);
  });
});
