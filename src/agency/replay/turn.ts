/**
 * Where a what-if replay starts: the turn (one user message and every run it caused, nested ones
 * included) that holds a given item, and how many items of each thread of the chat come before
 * that turn. Everything is read from the stored items and their origins (`meta`).
 * @module
 */
import { ColloquyError } from '../../errors.js';
import type { ThreadItem } from '../../stores/item.js';
import type { ThreadStore } from '../../stores/types.js';
import { liveThreads } from '../../threads/chatHistory.js';

/** Thrown when the item a replay starts at is not in the chat, or belongs to no turn. */
export class ReplayItemNotFoundError extends ColloquyError {
  constructor(message: string) {
    super('THREAD_NOT_FOUND', message);
  }
}

/** The items of every live thread of a chat, by thread id. */
export type ChatItems = Map<string, ThreadItem[]>;

/** The turn a replay runs again. */
export interface ReplayTurn {
  /** The run the user's message started (the root of the turn's call tree). */
  rootRunId: string;
  /** The entry point that got the user's message. */
  entryAgent: string;
  /** The user's message that started the turn, and where it is. */
  start: { threadId: string; position: number; item: ThreadItem };
  /** The item the replay was asked to start at, and where it is. */
  at: { threadId: string; position: number; item: ThreadItem };
  /** For each thread: how many of its items come before the turn (what the fork keeps). */
  keep: Record<string, number>;
}

/** Reads every live thread of a chat. */
export async function readChat(store: ThreadStore, chatId: string): Promise<ChatItems> {
  const chat: ChatItems = new Map();
  for (const record of await liveThreads(store, chatId)) {
    chat.set(record.threadId, await store.readItems(record.threadId));
  }
  return chat;
}

/** The root run of every run of the chat (a run's parent chain followed to the top). */
export function rootRuns(chat: ChatItems): Map<string, string> {
  const parent = new Map<string, string | null>();
  for (const items of chat.values()) {
    for (const { meta } of items) if (meta) parent.set(meta.runId, meta.parentRunId);
  }
  const roots = new Map<string, string>();
  for (const runId of parent.keys()) {
    let current = runId;
    for (let hops = 0; hops < 1000; hops++) {
      const up = parent.get(current);
      if (up === null || up === undefined || !parent.has(up)) break;
      current = up;
    }
    roots.set(runId, current);
  }
  return roots;
}

/** Turns in the order they ran: each root run with its first item (the user's message). */
function turnOrder(chat: ChatItems): Array<{ runId: string; threadId: string; position: number }> {
  const starts = new Map<
    string,
    { runId: string; threadId: string; position: number; at: string }
  >();
  for (const [threadId, items] of chat) {
    items.forEach(({ meta }, position) => {
      if (!meta || meta.parentRunId !== null || meta.callerAgent !== null) return;
      if (starts.has(meta.runId)) return;
      starts.set(meta.runId, { runId: meta.runId, threadId, position, at: meta.createdAt });
    });
  }
  return [...starts.values()].sort((a, b) =>
    a.threadId === b.threadId ? a.position - b.position : a.at.localeCompare(b.at),
  );
}

/**
 * Finds the turn holding item `at` of `chatId`. Throws {@link ReplayItemNotFoundError} naming the
 * fix when the item is not in the chat or has no origin (items imported without `meta`).
 */
export function locateTurn(chat: ChatItems, chatId: string, at: string): ReplayTurn {
  let found: ReplayTurn['at'] | undefined;
  for (const [threadId, items] of chat) {
    const position = items.findIndex((entry) => entry.id === at);
    if (position >= 0) found = { threadId, position, item: items[position]! };
  }
  if (!found) {
    throw new ReplayItemNotFoundError(
      `Chat "${chatId}" has no item "${at}" in its threads. Pass the id of one of its items: ` +
        'list them with colloquy threads show THREAD_ID --json (or GET /threads/:id).',
    );
  }
  if (!found.item.meta) {
    throw new ReplayItemNotFoundError(
      `Item "${at}" of chat "${chatId}" has no origin (it was imported without meta), so the turn it belongs to is unknown. ` +
        'Start the replay at an item an agency call recorded.',
    );
  }
  const roots = rootRuns(chat);
  const rootRunId = roots.get(found.item.meta.runId) ?? found.item.meta.runId;
  const order = turnOrder(chat);
  const index = order.findIndex((turn) => turn.runId === rootRunId);
  const first = order[index];
  if (!first) {
    throw new ReplayItemNotFoundError(
      `Item "${at}" of chat "${chatId}" belongs to run ${rootRunId}, whose user message is no longer in the chat. ` +
        'Start the replay at an item of a turn the chat still holds.',
    );
  }
  const startItem = chat.get(first.threadId)![first.position]!;
  // A thread keeps its items up to the first one of this turn or of any later turn.
  const later = new Set(order.slice(index).map((turn) => turn.runId));
  const keep: Record<string, number> = {};
  for (const [threadId, items] of chat) {
    const cut = items.findIndex(
      ({ meta }) => meta !== undefined && later.has(roots.get(meta.runId) ?? meta.runId),
    );
    keep[threadId] = cut < 0 ? items.length : cut;
  }
  return {
    rootRunId,
    entryAgent: startItem.meta!.agent,
    start: { threadId: first.threadId, position: first.position, item: startItem },
    at: found,
    keep,
  };
}

/** The items of one turn (its root run and every nested run), by thread, in thread order. */
export function turnItems(chat: ChatItems, rootRunId: string): Map<string, ThreadItem[]> {
  const roots = rootRuns(chat);
  const byThread = new Map<string, ThreadItem[]>();
  for (const [threadId, items] of chat) {
    const own = items.filter(({ meta }) => meta && roots.get(meta.runId) === rootRunId);
    if (own.length > 0) byThread.set(threadId, own);
  }
  return byThread;
}
