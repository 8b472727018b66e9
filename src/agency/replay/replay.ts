/**
 * "What if?": run a turn of a stored chat again with one thing changed (an agent's instructions
 * or model, or the user's message), in a fork, and compare the two branches. Model calls the
 * original chat already answered are replayed from its stored items (no model call); only the
 * changed agents' calls, and calls whose input the change altered, go to live models.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AgentInputItem } from '@openai/agents-core';
import { ColloquyError, ConfigError } from '../../errors.js';
import { costPico, modelPrice, type ModelPrice } from '../../models/pricing.js';
import type { ThreadItem } from '../../stores/item.js';
import { rehomeThreadId } from '../../threads/chatHistory.js';
import type { Agency } from '../agency.js';
import { gateOf } from '../chatGate.js';
import { DEFAULT_CHAT_WAIT_MS } from '../options.js';
import { branchAgency, type ReplayChange } from './branchAgency.js';
import { ReplayTally } from './branchModel.js';
import {
  agentSteps,
  differencesOf,
  finalAnswerOf,
  sideBySide,
  type AgentSideBySide,
  type Branch,
  type BranchUsage,
  type ReplayDifference,
} from './compare.js';
import { recordingsOf } from './recordings.js';
import { assignTokens, sumByAgent, tokensByAgent, traceOfRun } from './traceTokens.js';
import { locateTurn, readChat, type ChatItems } from './turn.js';

export type { ReplayChange } from './branchAgency.js';

/** Options of {@link replayChat}. */
export interface ReplayChatOptions {
  /** The chat to branch from (it is left untouched). */
  chatId: string;
  /**
   * The id of the first item to run again. The fork keeps everything before the turn that holds
   * it; that turn runs again from its user message, its model calls before `at` replayed.
   */
  at: string;
  /** Changes by agent name: new instructions (text) and/or model (a name or a Model). */
  set?: Record<string, ReplayChange>;
  /** The user's message of the turn, changed. */
  message?: string;
  /** The fork's chat id (default: a new `chat_…` id). */
  newChatId?: string;
  /** The user the call runs for (memory), as in `getResponse`. */
  userId?: string;
  /** Aborts the replay. */
  signal?: AbortSignal;
}

/** Model calls of a replay: answered from the original chat, or made live. */
export interface ReplayModelCalls {
  replayed: number;
  live: number;
  byAgent: Record<string, { replayed: number; live: number }>;
}

/** What {@link replayChat} returns. */
export interface ReplayResult {
  /** The fork's chat id. */
  chatId: string;
  /** The chat it was forked from. */
  forkOf: string;
  /** The item the replay started at. */
  at: string;
  agency: string;
  modelCalls: ReplayModelCalls;
  /** Exactly what differs, agent by agent (messages, tool calls, final answers, usage). */
  differences: ReplayDifference[];
  /** The turn in both chats, each agent's steps side by side. */
  branches: { original: Branch; replay: Branch };
  /** Each agent's steps in both branches, aligned row by row (what a side-by-side view shows). */
  sideBySide: AgentSideBySide[];
  /** The entry point's final output in the fork. */
  finalOutput: unknown;
}

/**
 * Forks `chatId` before the turn holding item `at` and runs that turn again with the changes.
 *
 * @example
 * ```ts
 * const result = await replayChat(agency, {
 *   chatId,
 *   at: firstUserItemId,
 *   set: { Writer: { instructions: 'Answer in one line.' } },
 * });
 * console.log(result.chatId, result.modelCalls, result.differences);
 * ```
 */
export async function replayChat(
  agency: Agency,
  options: ReplayChatOptions,
): Promise<ReplayResult> {
  const store = agency.threads.store;
  const set = options.set ?? {};
  checkReplayChanges(agency, set);
  // The chat is read and forked between its calls (a call running now finishes first).
  const gate = gateOf(store, agency.runtime);
  const leave =
    gate.tryEnter(options.chatId) ??
    (await gate.enter(
      options.chatId,
      agency.options.chatWaitMs ?? DEFAULT_CHAT_WAIT_MS,
      options.signal,
    ));
  let prepared;
  try {
    prepared = await prepare(agency, options);
  } finally {
    leave();
  }
  const { chat, turn, recordings, trace, calls, forkId } = prepared;

  const tally = new ReplayTally();
  const branch = branchAgency(agency, { set, recordings, tally });
  const response = await branch.getResponse(options.message ?? messageOf(turn.start.item), {
    chatId: forkId,
    recipient: turn.entryAgent,
    ...(options.userId ? { userId: options.userId } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });

  const forked = await readChat(store, forkId);
  const kept = new Map(
    Object.entries(turn.keep).map(([id, keep]) => [
      rehomeThreadId(id, options.chatId, forkId),
      keep,
    ]),
  );
  const originalSums = trace ? sumByAgent(calls) : undefined;
  const priceOf = (agent: string, replayed: boolean): ModelPrice | undefined => {
    const model = replayed ? set[agent]?.model : undefined;
    if (typeof model === 'string') return agency.options.prices?.[model] ?? modelPrice(model);
    return agency.priceFor(agent);
  };
  const original = branchOf(options.chatId, after(chat, turn.keep), (agent) =>
    usageOf(originalSums ? (originalSums.get(agent) ?? zero()) : undefined, priceOf(agent, false)),
  );
  const replay = branchOf(forkId, after(forked, Object.fromEntries(kept)), (agent) =>
    usageOf(trace ? tally.of(agent) : undefined, priceOf(agent, true)),
  );
  return {
    chatId: forkId,
    forkOf: options.chatId,
    at: options.at,
    agency: agency.name,
    modelCalls: {
      replayed: tally.replayed,
      live: tally.live,
      byAgent: Object.fromEntries(
        [...tally.byAgent].map(([agent, { replayed, live }]) => [agent, { replayed, live }]),
      ),
    },
    differences: differencesOf(original, replay),
    branches: { original, replay },
    sideBySide: sideBySide(original, replay),
    finalOutput: response.finalOutput,
  };
}

/** Reads the chat, finds the turn, rebuilds its recorded calls and forks the chat before it. */
async function prepare(agency: Agency, options: ReplayChatOptions) {
  const store = agency.threads.store;
  const chat = await readChat(store, options.chatId);
  if (chat.size === 0) {
    throw new ColloquyError(
      'CHAT_NOT_FOUND',
      `There is no chat "${options.chatId}" in the ${store.kind} store of agency "${agency.name}". List the stored chats with: colloquy threads list`,
    );
  }
  const turn = locateTurn(chat, options.chatId, options.at);
  const recordings = recordingsOf(chat, turn.keep, { historyView: agency.historyView }).filter(
    (recording) =>
      turn.at.item.id === turn.start.item.id ||
      recording.threadId !== turn.at.threadId ||
      recording.position < turn.at.position,
  );
  const trace = await traceOfRun(store, options.chatId, turn.rootRunId);
  const calls = trace ? tokensByAgent(trace) : new Map();
  assignTokens(recordings, calls, chat);

  const forkId = options.newChatId ?? `chat_${randomUUID()}`;
  for (const [threadId, keep] of Object.entries(turn.keep)) {
    if (keep === 0) continue;
    await store.fork(threadId, rehomeThreadId(threadId, options.chatId, forkId), {
      upTo: keep,
      chatId: forkId,
    });
  }

  return { chat, turn, recordings, trace, calls, forkId };
}

/** The user's message of a turn as the call input: its text, or the item itself (attachments). */
function messageOf(entry: ThreadItem): string | AgentInputItem[] {
  const content = (entry.item as { content?: unknown }).content;
  return typeof content === 'string' ? content : [entry.item];
}

function after(chat: ChatItems, keep: Readonly<Record<string, number>>): Map<string, ThreadItem[]> {
  const turn = new Map<string, ThreadItem[]>();
  for (const [threadId, items] of chat) {
    const rest = items.slice(keep[threadId] ?? 0);
    if (rest.length > 0) turn.set(threadId, rest);
  }
  return turn;
}

function zero() {
  return { inputTokens: 0, outputTokens: 0 };
}

function usageOf(
  tokens: { inputTokens: number; outputTokens: number } | undefined,
  price: ModelPrice | undefined,
): BranchUsage {
  if (!tokens) return { inputTokens: null, outputTokens: null, cost: null };
  return {
    inputTokens: tokens.inputTokens,
    outputTokens: tokens.outputTokens,
    cost: price ? costPico(price, tokens.inputTokens, tokens.outputTokens) / 1e12 : null,
  };
}

function branchOf(
  chatId: string,
  turn: ReadonlyMap<string, readonly ThreadItem[]>,
  usage: (agent: string) => BranchUsage,
): Branch {
  const steps = agentSteps(turn);
  return {
    chatId,
    agents: [...steps].map(([agent, list]) => ({
      agent,
      steps: list,
      finalAnswer: finalAnswerOf(list),
      usage: usage(agent),
    })),
  };
}

/** Checks `set` against the agency: every agent exists, every change is known. */
export function checkReplayChanges(agency: Agency, set: Record<string, ReplayChange>): void {
  const agents = [...agency.agents.keys()];
  for (const [agent, change] of Object.entries(set)) {
    if (!agency.agents.has(agent)) {
      throw new ConfigError(
        `set.${agent}: "${agent}" is not an agent of agency "${agency.name}". Agents: ${agents.join(', ')}.`,
      );
    }
    for (const key of Object.keys(change ?? {})) {
      if (key !== 'instructions' && key !== 'model') {
        throw new ConfigError(
          `set.${agent}.${key}: a replay changes only "instructions" or "model". Remove "${key}".`,
        );
      }
    }
  }
}
