/**
 * What an agency call returns, and how usage and items of nested runs add up.
 * @module
 */
import type { AgentInputItem, Usage } from '@openai/agents-core';
import type { PendingApproval } from './approvals.js';

/** Token usage summed over every model call of an agency call, nested calls included. */
export interface UsageSummary {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * What the tokens cost in USD, for runs whose model has a price (profile, `Agency({ prices })`
   * or the built-in table); absent when none had. Exactly `costPico / 10¹²`.
   */
  cost?: number;
  /** The cost in whole pico-dollars (10⁻¹² USD): summed exactly across the call tree. */
  costPico?: number;
}

/** One item generated during an agency call, tagged with the run that produced it. */
export interface TaggedItem {
  agent: string;
  callerAgent: string | null;
  runId: string;
  parentRunId: string | null;
  depth: number;
  item: AgentInputItem;
}

/** The result of `Agency.getResponse` (and of the `run_completed` stream event). */
export interface AgencyResponse<TOutput = unknown> {
  /** The entry point's final output. */
  finalOutput: TOutput;
  chatId: string;
  /** The agent that produced the final output (differs from the entry point after a handoff). */
  lastAgent: string;
  /**
   * Every item generated in the call, nested calls included, in conversation order: a nested
   * run's items come right before the send_message output that carried its answer.
   */
  newItems: TaggedItem[];
  usage: UsageSummary;
  /**
   * Present when the call stopped because tool calls (here or in a nested agent) need approval:
   * decide on each and pass `state` to `Agency.resume`.
   */
  interruptions?: PendingApproval[];
  /** The serializable state to resume an interrupted call with (JSON text). */
  state?: string;
  /** The entry point the agency's router picked for this message (when a router is set). */
  routedTo?: string;
}

/** A zero usage summary. */
export function emptyUsage(): UsageSummary {
  return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Adds an SDK usage object into a summary. */
export function addUsage(into: UsageSummary, usage: Usage | UsageSummary): void {
  into.requests += usage.requests;
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.totalTokens += usage.totalTokens;
  const pico = (usage as UsageSummary).costPico;
  if (pico !== undefined) setCost(into, (into.costPico ?? 0) + pico);
}

/** Sets a summary's cost from whole pico-dollars. */
export function setCost(usage: UsageSummary, pico: number): void {
  usage.costPico = pico;
  usage.cost = pico / 1e12;
}

/** The items of one finished run, and the send_message call that started it (if any). */
export interface FinishedRun {
  runId: string;
  parentRunId: string | null;
  /** The callId of the caller's send_message that started this run. */
  viaCallId: string | null;
  items: TaggedItem[];
}

/**
 * Orders the items of a call tree: each run's items in order, with a nested run's items placed
 * just before the caller's tool output for the send_message call that started it.
 */
export function orderItems(runs: readonly FinishedRun[], rootRunId: string): TaggedItem[] {
  if (runs.length === 1) return runs[0]!.runId === rootRunId ? [...runs[0]!.items] : [];
  const childrenByCall = new Map<string, FinishedRun[]>();
  // Runs started without a call id (a custom send_message tool may not pass one) go after
  // their parent's items rather than being lost.
  const unplaced = new Map<string, FinishedRun[]>();
  let root: FinishedRun | undefined;
  for (const run of runs) {
    if (run.runId === rootRunId) root = run;
    if (run.parentRunId === null) continue;
    const [map, key] =
      run.viaCallId === null
        ? [unplaced, run.parentRunId]
        : [childrenByCall, `${run.parentRunId}:${run.viaCallId}`];
    const siblings = map.get(key);
    if (siblings) siblings.push(run);
    else map.set(key, [run]);
  }
  const ordered: TaggedItem[] = [];
  const visit = (run: FinishedRun): void => {
    for (const tagged of run.items) {
      const callId = tagged.item.type === 'function_call_result' ? tagged.item.callId : undefined;
      const children = callId ? childrenByCall.get(`${run.runId}:${callId}`) : undefined;
      if (children) for (const child of children) visit(child);
      ordered.push(tagged);
    }
    const later = unplaced.get(run.runId);
    if (later) for (const child of later) visit(child);
  };
  if (root) visit(root);
  return ordered;
}
