import { describe, expect, it } from 'vitest';
import { chunkText, citeLines } from '../../src/files/chunks.js';

describe('chunkText edges', () => {
  it('gives no chunk for empty text and one for a single line', () => {
    expect(chunkText('', 5, 1)).toEqual([]);
    expect(chunkText('\n', 5, 1)).toEqual([{ startLine: 1, endLine: 1, text: '' }]);
    expect(chunkText('one', 5, 1)).toEqual([{ startLine: 1, endLine: 1, text: 'one' }]);
  });

  it('moves one line at a time with the largest overlap', () => {
    const chunks = chunkText('a\nb\nc\nd', 3, 2);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });

  it('covers every line exactly when there is no overlap', () => {
    const text = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n');
    const chunks = chunkText(text, 4, 0);
    expect(chunks.map((c) => c.text.split('\n').length)).toEqual([4, 4, 2]);
    expect(chunks.map((c) => c.text).join('\n')).toBe(text);
  });

  it('keeps blank lines inside the text, and counts them', () => {
    const chunks = chunkText('a\n\n\nb\n', 2, 0);
    expect(chunks).toEqual([
      { startLine: 1, endLine: 2, text: 'a\n' },
      { startLine: 3, endLine: 4, text: '\nb' },
    ]);
  });

  it('refuses windows that would not move forward, instead of looping forever', () => {
    for (const [size, overlap] of [
      [3, 3],
      [3, 4],
      [0, 0],
      [3, -1],
      [2.5, 1],
    ] as const) {
      expect(() => chunkText('a\nb\nc', size, overlap), `${size}/${overlap}`).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID' }),
      );
    }
  });
});

describe('citeLines edges', () => {
  const chunk = (lines: string[], startLine = 10) => ({
    startLine,
    endLine: startLine + lines.length - 1,
    text: lines.join('\n'),
  });

  it('does not join matching lines more than 3 lines away', () => {
    const lines = ['tidal power', 'x', 'x', 'x', 'x', 'tidal'];
    expect(citeLines(chunk(lines), ['tidal', 'power'])).toMatchObject({
      startLine: 10,
      endLine: 10,
    });
  });

  it('joins a matching line exactly 3 lines away', () => {
    const lines = ['tidal power', 'x', 'x', 'tidal'];
    expect(citeLines(chunk(lines), ['tidal', 'power'])).toMatchObject({
      startLine: 10,
      endLine: 13,
      excerpt: 'tidal power x x tidal',
    });
  });

  it('prefers the first of equally good lines', () => {
    const lines = ['x', 'solar', 'x', 'x', 'x', 'x', 'solar'];
    expect(citeLines(chunk(lines, 1), ['solar'])).toMatchObject({ startLine: 2, endLine: 2 });
  });

  it('matches case-insensitively, as the index does', () => {
    expect(citeLines(chunk(['nothing', 'WAVE Energy']), ['wave'])).toMatchObject({
      startLine: 11,
      excerpt: 'WAVE Energy',
    });
  });

  it('cites at most the first five lines when nothing matches', () => {
    const lines = Array.from({ length: 8 }, (_, i) => `line ${i}`);
    expect(citeLines(chunk(lines, 1), ['absent'])).toMatchObject({ startLine: 1, endLine: 5 });
  });
});
