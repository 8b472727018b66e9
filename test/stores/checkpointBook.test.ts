import { describe, expect, it } from 'vitest';
import { CheckpointBook } from '../../src/stores/checkpointBook.js';
import type { Checkpoint } from '../../src/stores/types.js';

const checkpoint = (id: string, chatId: string, createdAt: string): Checkpoint => ({
  checkpointId: id,
  chatId,
  label: null,
  createdAt,
  threads: { t: 1 },
});

describe('CheckpointBook', () => {
  it('lists a chat oldest first, equal times in insertion order', () => {
    const book = new CheckpointBook();
    book.put(checkpoint('late', 'c', '2026-01-02T00:00:00Z'));
    book.put(checkpoint('tie-a', 'c', '2026-01-01T00:00:00Z'));
    book.put(checkpoint('x', 'other', '2026-01-01T00:00:00Z'));
    book.put(checkpoint('tie-b', 'c', '2026-01-01T00:00:00.000+00:00'));
    expect(book.list('c').map((c) => c.checkpointId)).toEqual(['tie-a', 'tie-b', 'late']);
  });

  it('returns copies: changing one does not change the book', () => {
    const book = new CheckpointBook();
    const original = checkpoint('a', 'c', '2026-01-01T00:00:00Z');
    book.put(original);
    original.threads.t = 99;
    const read = book.get('a')!;
    expect(read.threads.t).toBe(1);
    read.threads.t = 7;
    expect(book.get('a')!.threads.t).toBe(1);
    expect(book.list('c')[0]!.threads.t).toBe(1);
  });

  it('refuses a duplicate id and a bad date, and forgets everything on clear', () => {
    const book = new CheckpointBook();
    book.put(checkpoint('a', 'c', '2026-01-01T00:00:00Z'));
    expect(() => book.put(checkpoint('a', 'c', '2026-01-03T00:00:00Z'))).toThrow(/"a"/);
    expect(() => book.put(checkpoint('b', 'c', 'soon'))).toThrow(/createdAt "soon" is not a date/);
    expect(book.get('b')).toBeNull();
    book.clear();
    expect(book.get('a')).toBeNull();
    expect(book.list('c')).toEqual([]);
  });
});
