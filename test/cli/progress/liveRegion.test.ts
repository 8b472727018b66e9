import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLiveRegion, frameRows, wrapLine } from '../../../src/cli/progress/liveRegion.js';
import { Screen } from './screen.js';

/** What a fresh terminal shows after `prelude` and then `text` written plainly. */
function plainly(columns: number, rows: number, prelude: string, text: string): string[] {
  const screen = new Screen(columns, rows);
  screen.write(`${prelude}${text}\n`);
  return screen.transcript();
}

describe('wrapLine', () => {
  it('cuts a line into rows of at most the width, counting wide characters as two', () => {
    expect(wrapLine('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapLine('界界界', 4)).toEqual(['界界', '界']);
    expect(wrapLine('abc界', 4)).toEqual(['abc', '界']);
    expect(wrapLine('', 4)).toEqual(['']);
  });

  it('keeps colours (taking no room), expands tabs and drops other control characters', () => {
    expect(wrapLine('\u001b[31mabcd\u001b[0mef', 4)).toEqual(['\u001b[31mabcd\u001b[0m', 'ef']);
    expect(wrapLine('a\tb', 20)).toEqual([`a${' '.repeat(7)}b`]);
    expect(wrapLine('a\rb\u0007c\u001b]8;;x\u0007d', 20)).toEqual(['abcd']);
  });

  it('keeps the last rows of a frame taller than the terminal, one row left for the cursor', () => {
    expect(frameRows('1\n2\n3\n4\n5', 10, 4)).toEqual(['3', '4', '5']);
    expect(frameRows('1\n2', 10, 4)).toEqual(['1', '2']);
  });
});

describe('createLiveRegion on a terminal', () => {
  it('redraws in place: a shorter frame leaves no stale line, and output above stays', () => {
    const screen = new Screen(20, 10);
    screen.write('$ colloquy demo\n');
    const region = createLiveRegion(screen.stream());
    region.render('⠋ Boss  0.1 s\n└─ ⠋ Helper  0.0 s\n\npartial answer');
    region.render('⠙ Boss  0.2 s');
    expect(screen.transcript()).toEqual(['$ colloquy demo', '⠙ Boss  0.2 s']);
    region.render('✓ Boss  1.0 s\n└─ ✓ Helper  0.5 s');
    expect(screen.transcript()).toEqual(['$ colloquy demo', '✓ Boss  1.0 s', '└─ ✓ Helper  0.5 s']);
  });

  it('counts the rows a long line wraps into, at the terminal width', () => {
    const screen = new Screen(8, 10);
    const region = createLiveRegion(screen.stream());
    region.render(`${'x'.repeat(20)}\n${'界'.repeat(5)}\n12345678`); // 3 + 2 + 1 rows
    expect(screen.transcript()).toHaveLength(6);
    region.render('short');
    expect(screen.transcript()).toEqual(['short']);
  });

  it('redraws only from the first row that changed', () => {
    const screen = new Screen(40, 10);
    const stream = screen.stream();
    let written = '';
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string) => {
      written += chunk;
      return write(chunk);
    }) as typeof stream.write;
    const region = createLiveRegion(stream);
    region.render('first row stays\nsecond 1');
    written = '';
    region.render('first row stays\nsecond 2');
    expect(written).not.toContain('first row stays');
    expect(written).toContain('second 2');
    written = '';
    region.render('first row stays\nsecond 2');
    expect(written).toBe(''); // an unchanged frame writes nothing
    expect(screen.transcript()).toEqual(['first row stays', 'second 2']);
  });

  it('shows the last rows of a frame taller than the screen and still redraws in place', () => {
    const screen = new Screen(20, 5);
    const region = createLiveRegion(screen.stream());
    region.render(['1', '2', '3', '4', '5', '6', '7'].join('\n'));
    expect(screen.grid.map((cells) => cells.join('').trimEnd())).toEqual(['4', '5', '6', '7', '']);
    region.render('done');
    expect(screen.grid.map((cells) => cells.join('').trimEnd())).toEqual(['done', '', '', '', '']);
  });

  it('clears the frame, and after done draws the next frame below the kept one', () => {
    const screen = new Screen(20, 10);
    const region = createLiveRegion(screen.stream());
    region.render('one\ntwo');
    region.clear();
    expect(screen.transcript()).toEqual([]);
    region.render('kept');
    region.done();
    region.render('next');
    expect(screen.transcript()).toEqual(['kept', 'next']);
  });

  it('hides the cursor while live, shows it on done, and at exit if done never came', () => {
    const screen = new Screen(20, 10);
    const region = createLiveRegion(screen.stream());
    const exits = process.listenerCount('exit');
    const interrupts = process.listenerCount('SIGINT');
    region.render('working');
    expect(screen.cursorVisible).toBe(false);
    expect(process.listenerCount('exit')).toBe(exits + 1);
    expect(process.listenerCount('SIGINT')).toBe(interrupts + 1);
    process.listeners('exit').at(-1)!.call(process, 0);
    expect(screen.cursorVisible).toBe(true);
    region.render('working more');
    region.done();
    expect(screen.cursorVisible).toBe(true);
    expect(process.listenerCount('exit')).toBe(exits);
    expect(process.listenerCount('SIGINT')).toBe(interrupts);
    // Each frame is one synchronized update.
    expect(screen.modes.filter((mode) => mode === '?2026h')).toHaveLength(2);
    expect(screen.modes.filter((mode) => mode === '?2026l')).toHaveLength(2);
  });

  it('leaves exactly the last frame on screen after any sequence of frames and widths', () => {
    const line = fc.array(fc.constantFrom('a', 'b', ' ', '界', 'é', '✓', '─', '🙂'), {
      maxLength: 30,
    });
    const frame = fc
      .array(line, { minLength: 1, maxLength: 5 })
      .map((lines) => lines.map((chars) => chars.join('')).join('\n'));
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 30 }),
        fc.array(frame, { minLength: 1, maxLength: 6 }),
        (columns, frames) => {
          const screen = new Screen(columns, 100);
          screen.write('$ prompt\n');
          const region = createLiveRegion(screen.stream());
          for (const text of frames) region.render(text);
          expect(screen.transcript()).toEqual(plainly(columns, 100, '$ prompt\n', frames.at(-1)!));
        },
      ),
      { numRuns: 300 },
    );
  });
});
