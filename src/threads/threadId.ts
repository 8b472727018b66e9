/**
 * Thread ids. One thread per pair of talkers in a chat: `{chatId}__{agent}__USER` for an entry
 * point with the user, `{chatId}__{a}__{b}` (names sorted) for two agents.
 *
 * Parts are escaped so that no two different (chat, participants) can produce the same id, even
 * with names that contain `__`, start or end with `_`, or are literally `USER`: an escaped part
 * never contains `__` or `~`, never starts or ends with `_`, and is never `USER`.
 * @module
 */

const SEPARATOR = '__';
const USER = 'USER';
const NEEDS_ESCAPE = /[%~]|__|^_|_$/;

/** Escapes one part of a thread id (see module doc); `unescapePart` reverses it. */
export function escapePart(part: string): string {
  // Most parts need no escaping: no `%`, `~` or `__`, no `_` at either end, not `USER`.
  if (!NEEDS_ESCAPE.test(part) && part !== USER) return part;
  // `~` is escaped too: stores mark archive threads with `~reset~`.
  let escaped = part.replaceAll('%', '%25').replaceAll('~', '%7E');
  if (escaped.includes('__') || escaped.startsWith('_') || escaped.endsWith('_')) {
    escaped = escaped.replaceAll('_', '%5F');
  }
  if (escaped === USER) escaped = '%55SER';
  return escaped;
}

/** Reverses {@link escapePart}; null when `part` is not an escaped part (e.g. a stray `%`). */
export function unescapePart(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    // A stray "%": not an escaped part.
    return null;
  }
}

/**
 * The id of the thread between `agent` and `other` (another agent's name) in `chatId`, or between
 * `agent` and the user when `other` is null.
 */
export function threadIdFor(chatId: string, agent: string, other: string | null = null): string {
  const chat = escapePart(chatId);
  if (other === null) return `${chat}${SEPARATOR}${escapePart(agent)}${SEPARATOR}${USER}`;
  const [first, second] = agent <= other ? [agent, other] : [other, agent];
  return `${chat}${SEPARATOR}${escapePart(first)}${SEPARATOR}${escapePart(second)}`;
}

/** The parts of a thread id made by {@link threadIdFor}, or null for other ids. */
export function parseThreadId(
  threadId: string,
): { chatId: string; participants: [string, string | null] } | null {
  const parts = threadId.split(SEPARATOR);
  if (parts.length !== 3) return null;
  const [chatId, first, second] = (parts as [string, string, string]).map(unescapePart);
  if (chatId == null || first == null || second == null) return null;
  return { chatId, participants: [first, parts[2] === USER ? null : second] };
}
