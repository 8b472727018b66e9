import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/cli/table.js';

/** The display column where the last cell `text` starts on `line`. */
const columnOf = (line: string, text: string) => stringWidth(line.slice(0, line.lastIndexOf(text)));

describe('renderTable', () => {
  it('sizes columns to a long id, so the next column stays aligned', () => {
    const long = `chat_${'0123456789abcdef'.repeat(5)}__Coordinator__USER`;
    const lines = renderTable(
      ['thread', 'items', 'chat'],
      [
        [long, 12, 'c1'],
        ['c1__A__USER', 3, 'c1'],
      ],
      { align: ['left', 'right'] },
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]!.startsWith(`${long}     12  c1`)).toBe(true);
    expect(lines[2]).toMatch(/^c1__A__USER +3 {2}c1$/);
    expect(columnOf(lines[1]!, 'c1')).toBe(columnOf(lines[2]!, 'c1'));
    for (const line of lines) expect(line).toBe(line.trimEnd());
  });

  it('measures wide (CJK) characters and emoji by their display width', () => {
    const lines = renderTable(
      ['name', 'items'],
      [
        ['東京の会話', 1],
        ['plain', 22],
        ['🌊 tides', 333],
      ],
      { align: ['left', 'right'] },
    );
    const ends = lines.map((line) => stringWidth(line));
    expect(new Set(ends).size).toBe(1);
    expect(columnOf(lines[1]!, '1')).toBe(columnOf(lines[2]!, '22') + 1);
    expect(lines[1]).toBe('東京の会話      1');
  });

  it('keeps one line per row, styles the header and indents', () => {
    const lines = renderTable(['a', 'b'], [['x\ny', 'z']], {
      head: (text) => text.toUpperCase(),
      indent: 2,
    });
    expect(lines).toEqual(['  A    B', '  x y  z']);
  });

  it('ignores colour codes when it measures', () => {
    const bold = (text: string) => `\x1b[1m${text}\x1b[22m`;
    const lines = renderTable(['name', 'n'], [['abc', 1]], { head: bold });
    expect(lines[1]).toBe('abc   1');
    expect(lines[0]).toBe(`${bold('name')}  ${bold('n')}`);
  });
});
