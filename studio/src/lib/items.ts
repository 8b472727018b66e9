/**
 * How the studio names and orders threads and classifies their items. Pure, for the views and
 * their tests.
 * @module
 */
import { outputText } from './streamTree.js';
import type { ThreadItem } from './types.js';

/** What an item is, for drawing: `message`, `tool_call`, `tool_result`, `handoff`, `error`, or its type. */
export function itemKind(item: ThreadItem['item']): string {
  if (item.type === 'function_call')
    return String(item.name ?? '').startsWith('transfer_to_') ? 'handoff' : 'tool_call';
  if (item.type === 'function_call_result') {
    const text = outputText(item.output);
    return /^(error|an error occurred)/i.test(text) ? 'error' : 'tool_result';
  }
  if (item.type === 'message' || (item.type === undefined && item.role)) return `message`;
  return item.type ?? 'item';
}

/** `chat__A__B` → `A ↔ B` (`USER` is the user). */
export function participants(threadId: string, chatId: string): string {
  const rest = threadId.startsWith(`${chatId}__`) ? threadId.slice(chatId.length + 2) : threadId;
  return rest
    .split('__')
    .map((part) => (part === 'USER' ? 'User' : part))
    .join(' ↔ ');
}

/** Whether a thread is the user's thread with an entry point (`…__USER`). */
export function isUserThread(threadId: string): boolean {
  return threadId.endsWith('__USER');
}

/** Orders threads: the user's threads first, then by id. */
export function compareThreads(a: string, b: string): number {
  if (isUserThread(a) !== isUserThread(b)) return isUserThread(a) ? -1 : 1;
  return a.localeCompare(b);
}
