/**
 * The CLI's tables: columns sized to their widest cell (ids of any length, wide CJK characters
 * and emoji measured by display width, colour codes ignored), no borders, two spaces between
 * columns, no trailing spaces. Printable ASCII is one column a character; other text is measured by
 * `string-width` (the live progress tree measures with it too), loaded the first time such text
 * appears.
 * @module
 */
import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

/** The display width of `text` (string-width is an ES module: `require` of it is synchronous on Node >= 20.19). */
function stringWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  return (requireModule('string-width') as typeof import('string-width')).default(text);
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Per-column alignment (default left); numbers usually go right. */
  align?: Array<'left' | 'right'>;
  /** Styles the header cells (e.g. bold when colour is on); default leaves them plain. */
  head?: (text: string) => string;
  /** Spaces before every line (default 0). */
  indent?: number;
}

/** Pads `text` to `width` display columns, on the right (left-aligned) or the left. */
function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - stringWidth(text)));
  return align === 'right' ? `${fill}${text}` : `${text}${fill}`;
}

/**
 * A table as lines: a header row (when `head` has cells), then one line per row.
 *
 * @example
 * ```ts
 * renderTable(['thread', 'items'], [['c1__A__USER', 12]], { align: ['left', 'right'] });
 * // ['thread       items', 'c1__A__USER     12']
 * ```
 */
export function renderTable(
  head: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  options: TableOptions = {},
): string[] {
  const style = options.head ?? ((text: string) => text);
  // One line per row keeps rows greppable: a multi-line cell is joined with spaces.
  const lines = [
    ...(head.length > 0 ? [head.map(style)] : []),
    ...rows.map((row) => row.map((cell) => String(cell).replace(/\s*\n\s*/g, ' '))),
  ];
  const columns = Math.max(0, ...lines.map((line) => line.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(0, ...lines.map((line) => stringWidth(line[column] ?? ''))),
  );
  const indent = ' '.repeat(options.indent ?? 0);
  return lines.map((line) => {
    const cells = widths.map((width, column) =>
      pad(line[column] ?? '', width, options.align?.[column] ?? 'left'),
    );
    return `${indent}${cells.join('  ')}`.trimEnd();
  });
}
