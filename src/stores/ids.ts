/**
 * Id checks shared by every store: thread, chat and checkpoint ids must be well-formed Unicode
 * without U+0000.
 * A lone UTF-16 surrogate (reachable through JSON, e.g. `"\udbff"`) has no UTF-8 form, so backends
 * would replace it with U+FFFD or fail: `"\udbff-x"` and `"\udfff-x"` would name one thread.
 * @module
 */
import { ConfigError } from '../errors.js';

/** Whether `text` holds no lone UTF-16 surrogate (`String.prototype.isWellFormed`, Node ≥ 20). */
export function isWellFormedText(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** Index of the first lone surrogate in `text` (−1 when there is none). */
function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
      else return i;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

/** Whether every store can keep `id` as it is: well-formed text without U+0000 (Postgres refuses NUL). */
export function isStorableId(id: string): boolean {
  return isWellFormedText(id) && !id.includes('\u0000');
}

/**
 * Throws `ConfigError` (HTTP 400 on the server) when one of `ids` is a string that is not
 * well-formed Unicode or holds U+0000. `null` and `undefined` (optional ids) pass.
 *
 * @example
 * ```ts
 * checkIds('append', threadId, options.chatId);
 * ```
 */
export function checkIds(operation: string, ...ids: (string | null | undefined)[]): void {
  for (const id of ids) {
    if (typeof id !== 'string' || isStorableId(id)) continue;
    if (isWellFormedText(id)) {
      throw new ConfigError(
        `${operation}: the id ${JSON.stringify(id).slice(0, 120)} contains U+0000 (NUL), which stores cannot keep. ` +
          'Use ids of printable text, e.g. letters, digits, "-" and "_".',
      );
    }
    const at = loneSurrogateAt(id);
    const unit = `\\u${id.charCodeAt(at).toString(16).padStart(4, '0')}`;
    throw new ConfigError(
      `${operation}: the id ${JSON.stringify(id).slice(0, 120)} is not well-formed Unicode ` +
        `(lone UTF-16 surrogate ${unit} at index ${at}); stores cannot keep such ids distinct. ` +
        'Use ids of well-formed text, e.g. letters, digits, "-" and "_".',
    );
  }
}
