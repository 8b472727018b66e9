// MemoryStore keeps a thread's times as numbers and formats them when read: createdAt stays,
// updatedAt follows appends, metadata changes and rollbacks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/stores/memory.js';

afterEach(() => vi.useRealTimers());
const item = (id: string) => ({ id, item: { role: 'user' as const, content: id } });

describe('MemoryStore record times', () => {
  it('formats createdAt once set and updatedAt as of the last change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1, 0, 0, 0, 5));
    const store = new MemoryStore();
    await store.append('t', [item('a')], { expectedVersion: 0 });
    vi.setSystemTime(Date.UTC(2026, 0, 1, 0, 0, 1, 250));
    await store.append('t', [item('b')], { expectedVersion: 1 });
    expect(await store.getThread('t')).toMatchObject({
      createdAt: '2026-01-01T00:00:00.005Z',
      updatedAt: '2026-01-01T00:00:01.250Z',
      version: 2,
    });
    vi.setSystemTime(Date.UTC(2026, 0, 2));
    await store.setMetadata('t', { title: 'x' });
    expect((await store.getThread('t'))?.updatedAt).toBe('2026-01-02T00:00:00.000Z');
    vi.setSystemTime(Date.UTC(2026, 0, 3));
    await store.rollback('t', 1);
    expect(await store.getThread('t')).toMatchObject({
      createdAt: '2026-01-01T00:00:00.005Z',
      updatedAt: '2026-01-03T00:00:00.000Z',
      version: 1,
    });
  });
});
