/**
 * Token-budgeted views of long threads: the newest items that fit a budget, keeping system and
 * developer instructions, and never separating a tool call from its result.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';

/** Estimates the tokens an item costs as model input. */
export type TokenEstimator = (item: AgentInputItem) => number;

/** Options of {@link budgetedView}. */
export interface ViewOptions {
  /** The budget, in estimated tokens. */
  maxTokens: number;
  /** The estimator (default: {@link estimateTokens}). */
  estimator?: TokenEstimator;
}

/** A cheap estimate: about four characters of JSON per token, plus a small per-item overhead. */
export const estimateTokens: TokenEstimator = (item) =>
  Math.ceil(JSON.stringify(item).length / 4) + 3;

function isInstruction(item: AgentInputItem): boolean {
  return 'role' in item && (item.role === 'system' || (item.role as string) === 'developer');
}

/**
 * A tool call opens with its `callId` and closes with the item answering it: every
 * `*_result`/`*_output` type (function, computer, shell, apply-patch, hosted tools alike).
 */
function callIdOf(item: AgentInputItem): { callId: string; answers: boolean } | undefined {
  const callId = (item as { callId?: unknown }).callId;
  if (typeof callId !== 'string' || typeof item.type !== 'string') return undefined;
  return { callId, answers: /_(result|output)$/.test(item.type) };
}

/**
 * Splits items into blocks that must stay together: a block closes only when every tool call it
 * opened has its result, and reasoning items stay with what follows them.
 */
function blocksOf(items: readonly AgentInputItem[]): AgentInputItem[][] {
  const blocks: AgentInputItem[][] = [];
  let block: AgentInputItem[] = [];
  const open = new Set<string>();
  for (const item of items) {
    block.push(item);
    const call = callIdOf(item);
    if (call) {
      if (call.answers) open.delete(call.callId);
      else open.add(call.callId);
    }
    if (open.size === 0 && item.type !== 'reasoning') {
      blocks.push(block);
      block = [];
    }
  }
  if (block.length > 0) blocks.push(block);
  return blocks;
}

/**
 * The newest items that fit `maxTokens`, after the system/developer instructions (always kept).
 * The newest block is kept even when it alone exceeds the budget, so the model always sees the
 * message it must answer.
 */
export function budgetedView(
  items: readonly AgentInputItem[],
  options: ViewOptions,
): AgentInputItem[] {
  const estimate = options.estimator ?? estimateTokens;
  const pinned = items.filter(isInstruction);
  let budget = options.maxTokens - pinned.reduce((sum, item) => sum + estimate(item), 0);
  const blocks = blocksOf(items.filter((item) => !isInstruction(item)));
  const chosen: AgentInputItem[][] = [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    const cost = block.reduce((sum, item) => sum + estimate(item), 0);
    if (cost > budget && chosen.length > 0) break;
    chosen.unshift(block);
    budget -= cost;
  }
  return [...pinned, ...chosen.flat()];
}
