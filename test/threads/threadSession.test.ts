import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadSession } from '../../src/threads/threadSession.js';

// The Session contract itself is in the store conformance suite (src/testing/conformance/session.ts, published as colloquy/testing),
// run against every backend; these are the argument checks.
describe('ThreadSession arguments', () => {
  it('rejects an empty session id and a bad maxAppendAttempts with the fix', () => {
    const store = new MemoryStore();
    expect(() => new ThreadSession({ store, sessionId: '' })).toThrow(
      /sessionId is ""; pass a non-empty string/,
    );
    expect(() => new ThreadSession({ store, sessionId: 's', maxAppendAttempts: 0 })).toThrow(
      /maxAppendAttempts is 0; pass a whole number ≥ 1/,
    );
  });

  it('rejects a negative or fractional getItems limit', async () => {
    const session = new ThreadSession({ store: new MemoryStore(), sessionId: 's' });
    await expect(session.getItems(-1)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('getItems(-1)'),
    });
    await expect(session.getItems(1.5)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
