import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/stores/keyedLock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve)); // a task that yields a turn

describe('KeyedLock', () => {
  it('runs tasks of one key one at a time in call order, other keys alongside', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name}+`);
      await tick();
      log.push(`${name}-`);
      return name;
    };
    const results = await Promise.all([
      lock.run('k', task('a')),
      lock.run('k', task('b')),
      lock.run('other', task('x')),
    ]);
    expect(results).toEqual(['a', 'b', 'x']);
    expect(log.indexOf('a-')).toBeLessThan(log.indexOf('b+'));
    expect(log.indexOf('x+')).toBeLessThan(log.indexOf('a-'));
  });

  it('goes on after a failed task and passes its error only to its own caller', async () => {
    const lock = new KeyedLock();
    const failure = new Error('boom');
    const first = lock.run('k', async () => {
      throw failure;
    });
    const second = lock.run('k', async () => 'ok');
    await expect(first).rejects.toBe(failure);
    await expect(second).resolves.toBe('ok');
  });
});
