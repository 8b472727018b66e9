/**
 * What an agency call returns, and how usage and items of nested runs add up.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { Usage } from '../usage.js';
import type { PendingApproval } from './approvals.js';

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
  usage: Usage;
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

export { addUsage, emptyUsage, setCost } from '../usage.js';

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
  const tree: RunTree = { childrenByCall: new Map(), unplaced: new Map() };
  // Runs started without a call id (a custom send_message tool may not pass one) go after
  // their parent's items rather than being lost.
  let root: FinishedRun | undefined;
  for (const run of runs) {
    if (run.runId === rootRunId) root = run;
    if (run.parentRunId === null) continue;
    const unplaced = run.viaCallId === null;
    const map = unplaced ? tree.unplaced : tree.childrenByCall;
    const key = unplaced ? run.parentRunId : `${run.parentRunId}:${run.viaCallId}`;
    const siblings = map.get(key);
    if (siblings) siblings.push(run);
    else map.set(key, [run]);
  }
  const ordered: TaggedItem[] = [];
  if (root) visitRun(root, tree, ordered);
  return ordered;
}

/** The nested runs of a call tree: by `parentRunId:callId`, and those without a call id by parent. */
interface RunTree {
  childrenByCall: Map<string, FinishedRun[]>;
  unplaced: Map<string, FinishedRun[]>;
}

/** Appends `run`'s items to `ordered`, each nested run's just before the tool output it answers. */
function visitRun(run: FinishedRun, tree: RunTree, ordered: TaggedItem[]): void {
  for (const tagged of run.items) {
    const callId = tagged.item.type === 'function_call_result' ? tagged.item.callId : undefined;
    const children = callId ? tree.childrenByCall.get(`${run.runId}:${callId}`) : undefined;
    if (children) for (const child of children) visitRun(child, tree, ordered);
    ordered.push(tagged);
  }
  const later = tree.unplaced.get(run.runId);
  if (later) for (const child of later) visitRun(child, tree, ordered);
}
