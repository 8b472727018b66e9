/**
 * A block of terminal lines redrawn in place, written with Node's own cursor functions
 * (`node:readline`'s `moveCursor`, `cursorTo`, `clearScreenDown`). Each frame is wrapped to the
 * terminal's width (`string-width` measures wide characters) and cut to its height, so the cursor
 * always knows how many rows the last frame took and a redraw leaves no stale line behind. The
 * cursor is hidden while a frame is live and shown again by `done`, or at exit.
 * @module
 */
import { clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import type { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';

/** The terminal a {@link LiveRegion} draws on: a writable with the size of a TTY stream. */
export type LiveRegionStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };

/** A frame redrawn in place; see {@link createLiveRegion}. */
export interface LiveRegion {
  /** Draws `text` over the previous frame (only the rows from the first changed one down). */
  render(text: string): void;
  /** Erases the frame; the next `render` draws where it was. */
  clear(): void;
  /** Leaves the frame on screen and shows the cursor; the next `render` draws below it. */
  done(): void;
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
/** Synchronized output (DEC mode 2026): terminals that know it show a frame at once. */
const SYNC_START = '\u001b[?2026h';
const SYNC_END = '\u001b[?2026l';
const TAB = 8;
/** A colour or style sequence: kept, and takes no room. */
// eslint-disable-next-line no-control-regex -- ESC starts the sequence it matches
const SGR = /(\u001b\[[\d;]*m)/;
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const GRAPHEMES = new Intl.Segmenter();

/** One line as terminal rows of at most `columns` cells; other control sequences are dropped. */
export function wrapLine(line: string, columns: number): string[] {
  const rows: string[] = [];
  let row = '';
  let width = 0;
  line.split(SGR).forEach((part, index) => {
    if (index % 2 === 1) {
      row += part;
      return;
    }
    for (const { segment } of GRAPHEMES.segment(stripVTControlCharacters(part))) {
      const cell =
        segment === '\t' ? ' '.repeat(TAB - (width % TAB)) : segment.replace(CONTROL, '');
      const cells = stringWidth(cell);
      if (cells === 0 && cell === '') continue;
      if (width > 0 && width + cells > columns) {
        rows.push(row);
        row = '';
        width = 0;
      }
      row += cell;
      width += cells;
    }
  });
  rows.push(row);
  return rows;
}

/** The rows of a frame on a terminal of `columns` × `rows` (its last rows when it is taller). */
export function frameRows(text: string, columns: number, rows?: number): string[] {
  const all = text.split('\n').flatMap((line) => wrapLine(line, Math.max(1, columns)));
  // One row stays free for the cursor, which waits under the frame.
  return rows && rows > 1 ? all.slice(-(rows - 1)) : all;
}

/**
 * Makes a region on `stream` that each `render` redraws in place.
 *
 * @example
 * ```ts
 * const region = createLiveRegion(process.stderr);
 * region.render('⠋ Boss  0.1 s');
 * region.render('✓ Boss  1.2 s');
 * region.done();
 * ```
 */
export function createLiveRegion(stream: LiveRegionStream): LiveRegion {
  let previous: string[] = [];
  let previousColumns = 0;
  let hidden = false;
  const restore = () => void stream.write(SHOW_CURSOR);
  // On a signal nobody else handles, the cursor is shown and the signal raised again, so the
  // process still ends as it would have; a handler of its own (the SDK's) decides otherwise.
  const onSignal = (signal: NodeJS.Signals) => {
    showCursor();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const hideCursor = () => {
    if (hidden) return;
    hidden = true;
    stream.write(HIDE_CURSOR);
    process.once('exit', restore);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  };
  function showCursor() {
    if (!hidden) return;
    hidden = false;
    process.off('exit', restore);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    restore();
  }
  /** Moves to the first column of the frame's row `row`, and erases from there down. */
  const eraseFrom = (row: number) => {
    moveCursor(stream, 0, row - previous.length);
    cursorTo(stream, 0);
    clearScreenDown(stream);
  };
  return {
    render(text) {
      const columns = stream.columns || 80;
      const next = frameRows(text, columns, stream.rows);
      let same = columns === previousColumns ? 0 : -1;
      while (same >= 0 && same < next.length && next[same] === previous[same]) same += 1;
      if (same === next.length && next.length === previous.length) return;
      const keep = Math.max(0, same);
      stream.write(SYNC_START);
      hideCursor();
      // The first frame is written where the cursor is, as any other output would be.
      if (previous.length > 0) eraseFrom(keep);
      stream.write(`${next.slice(keep).join('\n')}${keep < next.length ? '\n' : ''}${SYNC_END}`);
      previous = next;
      previousColumns = columns;
    },
    clear() {
      if (previous.length === 0) return;
      eraseFrom(0);
      previous = [];
    },
    done() {
      previous = [];
      showCursor();
    },
  };
}
