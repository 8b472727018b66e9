/**
 * Compaction: when a pair thread's view would exceed its budget, the oldest part is summarised
 * and the summary replaces it in the view; the stored thread keeps every item. Summaries are
 * cached per (thread, position), found through forks, and checked against the item they end at.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { ThreadStore } from '../stores/types.js';
import { ConversationThread } from '../threads/conversationThread.js';
import { estimateTokens } from '../threads/view.js';
import { threadLineage } from './lineage.js';
import { transcriptLine } from './text.js';
import type { MemoryBackend, SummaryRecord } from './types.js';

/** Writes a summary of `transcript` (continuing `previous`, when there is one). */
export type Summarize = (transcript: string, previous: string | undefined) => Promise<string>;

/** What {@link compactedView} works on. */
export interface CompactionRequest {
  store: ThreadStore;
  backend: MemoryBackend;
  thread: ConversationThread;
  /** How many of the thread's items the history covers (those before the new message). */
  length: number;
  /** The agent the history is rendered for. */
  as: string;
  /** The items after the history: the recall block and the new message. */
  tail: readonly AgentInputItem[];
  maxTokens: number;
  summarize: Summarize;
  owner: { agency: string | null; userId: string | null };
}

const cost = (items: readonly AgentInputItem[]): number =>
  items.reduce((sum, item) => sum + estimateTokens(item), 0);

/** The summary as the model sees it. */
export function summaryItem(text: string): AgentInputItem {
  return {
    role: 'system',
    content: `<conversation-summary>\nA summary of the earlier part of this conversation.\n${text}\n</conversation-summary>`,
  };
}

/** Positions where the thread may be cut: no tool call open, not after a reasoning item. */
function cutPoints(thread: ConversationThread, length: number): number[] {
  const points: number[] = [];
  const open = new Set<string>();
  for (let i = 0; i < length; i++) {
    const item = thread.items[i]!.item as { callId?: unknown; type?: string };
    if (typeof item.callId === 'string' && typeof item.type === 'string') {
      if (/_(result|output)$/.test(item.type)) open.delete(item.callId);
      else open.add(item.callId);
    }
    if (open.size === 0 && item.type !== 'reasoning') points.push(i + 1);
  }
  return points;
}

/** The newest valid cached summary of the thread (its own, or inherited through a fork). */
async function cachedSummary(request: CompactionRequest): Promise<SummaryRecord | undefined> {
  const { thread, length } = request;
  let best: SummaryRecord | undefined;
  for (const [threadId, visible] of await threadLineage(request.store, thread.threadId)) {
    for (const summary of await request.backend.summaries(threadId)) {
      if (summary.position > Math.min(visible, length)) continue;
      if (thread.items[summary.position - 1]?.id !== summary.headId) continue; // stale
      if (!best || summary.position > best.position) best = summary;
    }
  }
  return best;
}

/**
 * The model input for a pair thread's history followed by `tail`, within `maxTokens` where a
 * summary can make it so. Unchanged when it already fits.
 */
export async function compactedView(
  request: CompactionRequest,
): Promise<{ items: AgentInputItem[]; summarized: number }> {
  const { thread, length, as, tail, maxTokens } = request;
  const history = (from: number) =>
    new ConversationThread({
      threadId: thread.threadId,
      items: thread.items.slice(from, length),
    }).historyForModel({ as });
  const whole = history(0);
  if (cost(whole) + cost(tail) <= maxTokens) return { items: [...whole, ...tail], summarized: 0 };
  const cached = await cachedSummary(request);
  if (cached) {
    const view = [summaryItem(cached.text), ...history(cached.position), ...tail];
    if (cost(view) <= maxTokens) return { items: view, summarized: cached.position };
  }
  // A new cut: keep the newest items that fit half the budget, summarise the rest.
  const from = cached?.position ?? 0;
  const keep = Math.floor(maxTokens / 2) - cost(tail);
  const points = cutPoints(thread, length).filter((p) => p > from);
  let cut = points.at(-1) ?? length;
  for (const point of points) {
    if (cost(history(point)) <= keep) {
      cut = point;
      break;
    }
  }
  if (cut <= from) {
    const items = cached
      ? [summaryItem(cached.text), ...history(from), ...tail]
      : [...whole, ...tail];
    return { items, summarized: from };
  }
  const transcript = thread.items
    .slice(from, cut)
    .map(({ item }) => transcriptLine(item))
    .filter((line): line is string => line !== undefined)
    .join('\n');
  const text = (await request.summarize(transcript, cached?.text)).trim();
  await request.backend.putSummary({
    threadId: thread.threadId,
    position: cut,
    headId: thread.items[cut - 1]!.id,
    agency: request.owner.agency,
    userId: request.owner.userId,
    text,
    createdAt: new Date().toISOString(),
  });
  return { items: [summaryItem(text), ...history(cut), ...tail], summarized: cut };
}
