/**
 * One conversation between two talkers (an agent and the user, or two agents), as seed 000
 * describes: an ordered log of items, with pending items not yet saved to the store.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import { randomUUID } from 'node:crypto';
import type { ItemMeta, ThreadItem } from '../stores/item.js';
import { budgetedView, type ViewOptions } from './view.js';

/** Options of {@link ConversationThread.historyForModel}. */
export interface HistoryOptions {
  /**
   * Render the history as this agent sees it. Items of the other agent's runs (the runs this agent
   * called, `meta.callerAgent === as`) are turned around (its replies become user messages, the
   * messages sent to it become assistant messages) and their tool calls are left out: they are the
   * other agent's business. Items of this agent's own runs stay as they are, whichever agent
   * produced them after a handoff.
   */
  as?: string;
}

/** The messages of one pair of talkers in one chat. */
export class ConversationThread {
  readonly threadId: string;
  readonly chatId: string | null;
  /** Every item, saved and pending, in order. */
  readonly items: ThreadItem[];
  /** Free-form metadata. */
  metadata: Record<string, unknown>;
  /** How many of `items` the store holds (the store's version of this thread). */
  savedVersion: number;

  constructor(options: {
    threadId: string;
    chatId?: string | null;
    items?: ThreadItem[];
    metadata?: Record<string, unknown>;
    savedVersion?: number;
  }) {
    this.threadId = options.threadId;
    this.chatId = options.chatId ?? null;
    this.items = [...(options.items ?? [])];
    this.metadata = options.metadata ?? {};
    this.savedVersion = options.savedVersion ?? this.items.length;
  }

  /** Items added but not yet saved. */
  get pending(): ThreadItem[] {
    return this.items.slice(this.savedVersion);
  }

  /** Whether some items are not saved yet (without copying them as `pending` does). */
  get hasPending(): boolean {
    return this.items.length > this.savedVersion;
  }

  /** Appends one protocol item; the thread manager saves it. */
  addItem(item: AgentInputItem, meta?: ItemMeta): ThreadItem {
    const entry: ThreadItem = meta ? { id: randomUUID(), item, meta } : { id: randomUUID(), item };
    this.items.push(entry);
    return entry;
  }

  /** Appends several protocol items with the same origin. */
  addItems(items: readonly AgentInputItem[], meta?: ItemMeta): ThreadItem[] {
    return items.map((item) => this.addItem(item, meta));
  }

  /**
   * The items in the shape a model takes as input, followed by `then` (e.g. the message about to be
   * sent) when given, in one new array.
   */
  historyForModel(
    options: HistoryOptions = {},
    then?: readonly AgentInputItem[],
  ): AgentInputItem[] {
    const history: AgentInputItem[] = [];
    const as = options.as;
    for (const { item, meta } of this.items) {
      if (as === undefined || meta === undefined || meta.callerAgent !== as) {
        history.push(item);
        continue;
      }
      const turned = turnAround(item);
      if (turned) history.push(turned);
    }
    if (then) for (const item of then) history.push(item);
    return history;
  }

  /**
   * The newest items that fit a token budget, as model input: instructions kept, tool calls never
   * separated from their results. See {@link budgetedView}.
   */
  view(options: ViewOptions & HistoryOptions): AgentInputItem[] {
    return budgetedView(this.historyForModel(options), options);
  }

  /** A copy of the whole log, with ids and origins. */
  fullLog(): ThreadItem[] {
    return this.items.map((entry) => ({ ...entry }));
  }
}

/** The other agent's item as seen from this side of the pair, or null when it is not shared. */
function turnAround(item: AgentInputItem): AgentInputItem | null {
  if (!('role' in item)) return null;
  const text = plainText(item.content);
  if (item.role === 'assistant') return { role: 'user', content: text };
  if (item.role === 'user') {
    return {
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    };
  }
  return null;
}

function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part.text === 'string' ? (part.text as string) : ''))
    .join('');
}
