/**
 * The model answers a chat already holds, as a cassette made from its stored items: every run of
 * a turn stored its input and what the model answered (assistant messages, tool calls), so each
 * model call can be rebuilt as "this input got this output". A replay answers a call from here
 * when its input is exactly the recorded one.
 * @module
 */
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { canonicalJson, normalizeRequest } from '../../models/requestKey.js';
import type { ThreadItem } from '../../stores/item.js';
import { ConversationThread } from '../../threads/conversationThread.js';
import { budgetedView, type ViewOptions } from '../../threads/view.js';

/** Tokens of one recorded model call (from the chat's trace), when known. */
export interface RecordedTokens {
  inputTokens: number;
  outputTokens: number;
}

/** One model call of the original chat: the input it had and what it answered. */
export interface Recording {
  /** The agent whose model answered. */
  agent: string;
  threadId: string;
  /** Position in the thread of the first item the call answered with. */
  position: number;
  /** The normalized input (canonical JSON), compared with a new call's. */
  input: string;
  /** The items the model answered with, as stored. */
  output: AgentInputItem[];
  /** Tokens, when the chat's trace recorded them. */
  tokens?: RecordedTokens;
  /** Whether a replay answered a call with it already. */
  used: boolean;
}

/** Whether an item is something a model produced (a message or a call), not an input to it. */
export function isModelOutput(item: AgentInputItem): boolean {
  const record = item as { role?: unknown; type?: unknown };
  if (typeof record.role === 'string') return record.role === 'assistant';
  const type = String(record.type ?? '');
  return !type.endsWith('_result') && !type.endsWith('_output');
}

/** A request's (or a list of items') normalized input as canonical JSON. */
export function inputKey(input: ModelRequest['input'] | AgentInputItem[]): string {
  return canonicalJson(
    normalizeRequest({ input, tools: [], handoffs: [], outputType: 'text' }).input,
  );
}

/** Options of {@link recordingsOf}. */
export interface RecordingsOptions {
  /** The agency's `historyView`, applied as the agency applies it at the start of a run. */
  historyView?: ViewOptions | undefined;
}

/**
 * The model calls of a turn, rebuilt from the whole threads of the chat (`threads`) and the
 * positions where the turn starts in each (`from`).
 */
export function recordingsOf(
  threads: ReadonlyMap<string, readonly ThreadItem[]>,
  from: Readonly<Record<string, number>>,
  options: RecordingsOptions = {},
): Recording[] {
  const recordings: Recording[] = [];
  for (const [threadId, items] of threads) {
    const runStart = new Map<string, number>();
    for (let position = from[threadId] ?? 0; position < items.length; position++) {
      const { item, meta } = items[position]!;
      if (!meta) continue;
      if (!runStart.has(meta.runId)) runStart.set(meta.runId, position);
      const previous = items[position - 1];
      const continues =
        previous !== undefined &&
        previous.meta?.runId === meta.runId &&
        previous.meta.agent === meta.agent &&
        isModelOutput(previous.item) &&
        position - 1 >= (from[threadId] ?? 0);
      if (!isModelOutput(item)) continue;
      if (continues) {
        recordings.at(-1)!.output.push(item);
        continue;
      }
      const start = runStart.get(meta.runId)!;
      // The run's agent: the one its incoming message went to (a handoff changes the producer).
      const runAgent = items[start]!.meta?.agent ?? meta.agent;
      const view = new ConversationThread({ threadId, items: items.slice(0, start + 1) });
      const history = view.historyForModel({ as: runAgent });
      const opening = options.historyView ? budgetedView(history, options.historyView) : history;
      const generated = items.slice(start + 1, position).map((entry) => entry.item);
      recordings.push({
        agent: meta.agent,
        threadId,
        position,
        input: inputKey([...opening, ...generated]),
        output: [item],
        used: false,
      });
    }
  }
  return recordings;
}

/**
 * The recording that answers a request of `agent`, or undefined: the first unused one with the
 * same input, else a used one (the same request asked again).
 */
export function matchRecording(
  recordings: readonly Recording[],
  agent: string,
  request: Pick<ModelRequest, 'input'>,
): Recording | undefined {
  const key = inputKey(request.input);
  const same = recordings.filter((entry) => entry.agent === agent && entry.input === key);
  const hit = same.find((entry) => !entry.used) ?? same.at(-1);
  if (hit) hit.used = true;
  return hit;
}
