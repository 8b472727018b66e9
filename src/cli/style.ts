/**
 * Colour for the CLI's output: on only when the stream is a terminal, `NO_COLOR` is unset (or
 * empty) and `TERM` is not `dumb`; `FORCE_COLOR` (non-zero) turns it on anywhere. Off, every
 * style returns the text unchanged, so pipes and files get plain text.
 * @module
 */
import { styleText } from 'node:util';

/** A style name of `util.styleText` (`bold`, `dim`, `green`, …). */
export type StyleName = Parameters<typeof styleText>[0];

/** Whether output written to `stream` should be coloured (see the module comment). */
export function colourEnabled(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0')
    return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

/** Styles text when colour is on, or returns it as is. */
export type Paint = (style: StyleName, text: string) => string;

/**
 * The painter for one stream.
 *
 * @example
 * ```ts
 * const paint = painter(process.stdout);
 * process.stdout.write(`${paint('green', '✓')} done\n`);
 * ```
 */
export function painter(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Paint {
  if (!colourEnabled(stream, env)) return (_style, text) => text;
  return (style, text) => styleText(style, text, { validateStream: false });
}
