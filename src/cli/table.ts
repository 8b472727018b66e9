/**
 * The CLI's tables: columns sized to their widest cell (ids of any length, wide CJK characters
 * and emoji measured by display width, colour codes ignored), no borders, two spaces between
 * columns, no trailing spaces. Built on cli-table3.
 * @module
 */
import Table from 'cli-table3';

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Per-column alignment (default left); numbers usually go right. */
  align?: Array<'left' | 'right'>;
  /** Styles the header cells (e.g. bold when colour is on); default leaves them plain. */
  head?: (text: string) => string;
  /** Spaces before every line (default 0). */
  indent?: number;
}

const NO_BORDER = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
    'middle',
  ].map((name) => [name, '']),
);

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
  const table = new Table({
    ...(head.length > 0 ? { head: head.map(style) } : {}),
    chars: NO_BORDER,
    colAligns: options.align ?? [],
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2, compact: true },
  });
  // cli-table3 draws a multi-line cell on several lines; one line per row keeps rows greppable.
  for (const row of rows) table.push(row.map((cell) => String(cell).replace(/\s*\n\s*/g, ' ')));
  const pad = ' '.repeat(options.indent ?? 0);
  return table
    .toString()
    .split('\n')
    .map((line) => `${pad}${line.trimEnd()}`);
}
