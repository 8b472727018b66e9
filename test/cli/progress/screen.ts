/**
 * A tiny terminal for tests: a grid of cells that understands what a live region writes (text,
 * newline, CSI cursor up/down/column, erase below and in line, private modes) the way xterm does,
 * including the pending wrap after the last column and scrolling into a scrollback. Any other
 * control sequence throws, so a test notices output it does not model.
 */
/* eslint-disable no-control-regex -- a terminal reads control characters */
import { Writable } from 'node:stream';
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter();

export class Screen {
  readonly scrollback: string[][] = [];
  grid: string[][];
  row = 0;
  /** The column; equal to `columns` when a wrap is pending. */
  col = 0;
  cursorVisible = true;
  /** Private modes seen (`?2026h` …), in order. */
  readonly modes: string[] = [];

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.grid = Array.from({ length: rows }, () => this.#blank());
  }

  #blank(): string[] {
    return Array.from({ length: this.columns }, () => ' ');
  }

  #lineFeed(): void {
    this.col = 0;
    if (this.row < this.rows - 1) this.row += 1;
    else {
      this.scrollback.push(this.grid.shift()!);
      this.grid.push(this.#blank());
    }
  }

  write(data: string): void {
    let rest = data;
    while (rest.length > 0) {
      const csi = /^\u001b\[(\??)([\d;]*)([A-Za-z])/.exec(rest);
      if (csi) {
        this.#csi(csi[1]!, csi[2]!, csi[3]!);
        rest = rest.slice(csi[0].length);
        continue;
      }
      if (rest.startsWith('\u001b')) throw new Error(`unmodelled sequence ${JSON.stringify(rest)}`);
      const next = rest.search(/[\u001b\n]/);
      const text = next === -1 ? rest : rest.slice(0, next);
      if (text) this.#print(text);
      rest = rest.slice(text.length);
      if (rest.startsWith('\n')) {
        this.#lineFeed(); // a TTY turns \n into CR LF
        rest = rest.slice(1);
      }
    }
  }

  #print(text: string): void {
    for (const { segment } of graphemes.segment(text)) {
      if (/[\u0000-\u001f\u007f]/.test(segment))
        throw new Error(`unmodelled control ${JSON.stringify(segment)}`);
      const width = stringWidth(segment);
      if (width === 0) continue;
      if (this.col + width > this.columns) this.#lineFeed();
      this.grid[this.row]![this.col] = segment;
      if (width === 2) this.grid[this.row]![this.col + 1] = '';
      this.col += width;
    }
  }

  #csi(privateMark: string, params: string, final: string): void {
    const n = Number(params || '1');
    if (privateMark) {
      this.modes.push(`?${params}${final}`);
      if (params === '25') this.cursorVisible = final === 'h';
      return;
    }
    this.col = Math.min(this.col, this.columns - 1);
    if (final === 'A') this.row = Math.max(0, this.row - n);
    else if (final === 'B') this.row = Math.min(this.rows - 1, this.row + n);
    else if (final === 'G') this.col = Math.min(this.columns - 1, n - 1);
    else if (final === 'J' && (params === '' || params === '0')) {
      for (let c = this.col; c < this.columns; c++) this.grid[this.row]![c] = ' ';
      for (let r = this.row + 1; r < this.rows; r++) this.grid[r] = this.#blank();
    } else if (final === 'K') {
      const from = params === '2' ? 0 : this.col;
      for (let c = from; c < this.columns; c++) this.grid[this.row]![c] = ' ';
    } else if (final === 'm') return;
    else throw new Error(`unmodelled CSI ${params}${final}`);
  }

  /** Every row ever shown (scrollback, then the screen), right-trimmed, without trailing blanks. */
  transcript(): string[] {
    const lines = [...this.scrollback, ...this.grid].map((cells) => cells.join('').trimEnd());
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  /** A TTY-like stream that writes into this screen. */
  stream(): Writable & { isTTY: true; columns: number; rows: number } {
    return Object.assign(
      new Writable({
        decodeStrings: false,
        write: (chunk, _encoding, done) => {
          this.write(String(chunk));
          done();
        },
      }),
      { isTTY: true as const, columns: this.columns, rows: this.rows },
    );
  }
}
