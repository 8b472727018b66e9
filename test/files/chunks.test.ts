import { describe, expect, it } from 'vitest';
import { chunkText, citeLines, termsOf } from '../../src/files/chunks.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('chunkText', () => {
  it('makes overlapping windows of lines, 1-based and inclusive, ending at the last line', () => {
    const chunks = chunkText(numbered(10), 4, 1);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(chunks[1]!.text).toBe('line 4\nline 5\nline 6\nline 7');
  });

  it('ignores one trailing newline, reads CRLF, and keeps a short file in one chunk', () => {
    expect(chunkText('a\r\nb\n', 40, 10)).toEqual([{ startLine: 1, endLine: 2, text: 'a\nb' }]);
    expect(chunkText('', 40, 10)).toEqual([]);
    expect(chunkText(numbered(3), 3, 0).map((c) => c.startLine)).toEqual([1]);
  });
});

describe('termsOf', () => {
  it('splits and lowercases like the index', () => {
    expect(termsOf('Refund WINDOW: 30-days')).toEqual(['refund', 'window', '30', 'days']);
    expect(termsOf('   ')).toEqual([]);
  });
});

describe('citeLines', () => {
  const chunk = {
    startLine: 11,
    endLine: 20,
    text: [
      'intro',
      'nothing here',
      'refund policy',
      'the refund window is 30 days',
      'unrelated',
      'window again',
      'x',
      'y',
      'z',
      'refund far away',
    ].join('\n'),
  };

  it('cites the line with the most matched terms, widened to nearby matching lines', () => {
    const cited = citeLines(chunk, ['refund', 'window']);
    expect(cited.startLine).toBe(13);
    expect(cited.endLine).toBe(16);
    expect(cited.excerpt).toBe('refund policy the refund window is 30 days unrelated window again');
  });

  it("cites the chunk's first lines when no line matches (a hit on the file name)", () => {
    const cited = citeLines(chunk, ['absent']);
    expect([cited.startLine, cited.endLine]).toEqual([11, 15]);
    expect(cited.excerpt.startsWith('intro nothing here')).toBe(true);
  });

  it('shortens a long excerpt with an ellipsis', () => {
    const long = { startLine: 1, endLine: 1, text: `refund ${'word '.repeat(100)}` };
    const cited = citeLines(long, ['refund']);
    expect(cited.excerpt.length).toBeLessThanOrEqual(240);
    expect(cited.excerpt.endsWith('…')).toBe(true);
  });
});
