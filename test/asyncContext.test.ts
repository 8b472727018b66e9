import { describe, expect, it } from 'vitest';
import { contextSlot, readSlot, runInSlot } from '../src/asyncContext.js';

describe('the async context', () => {
  const user = contextSlot<string>('user');
  const fences = contextSlot<readonly string[]>('fences');

  it('is empty outside any run', () => {
    expect(readSlot(user)).toBeUndefined();
  });

  it('keeps the other slots of the context a slot is set in, across awaits', async () => {
    const seen = await runInSlot(user, 'ada', () =>
      runInSlot(fences, ['chat:c1'], async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return [readSlot(user), readSlot(fences)];
      }),
    );
    expect(seen).toEqual(['ada', ['chat:c1']]);
  });

  it('restores the outer value after an inner run, and keeps concurrent runs apart', async () => {
    const outer = await runInSlot(user, 'ada', async () => {
      const inner = runInSlot(user, 'bob', async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return readSlot(user);
      });
      const here = readSlot(user);
      return [await inner, here, readSlot(user)];
    });
    expect(outer).toEqual(['bob', 'ada', 'ada']);
    const both = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        runInSlot(user, name, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return readSlot(user);
        }),
      ),
    );
    expect(both).toEqual(['a', 'b', 'c']);
  });

  it('gives two slots of the same name separate values', () => {
    const again = contextSlot<string>('user');
    expect(runInSlot(user, 'ada', () => readSlot(again))).toBeUndefined();
  });
});
