/**
 * Two branches of one turn side by side: each agent's steps (the messages it got and sent, its
 * tool calls and their results), its final answer and its usage, aligned step by step (longest
 * common subsequence), and the list of exactly what differs.
 * @module
 */
import type { ThreadItem } from '../../stores/item.js';

/** What one step of an agent is. */
export type StepKind = 'input' | 'message' | 'tool_call' | 'tool_result' | 'other';

/** One item of an agent's part of a turn, as text. */
export interface BranchStep {
  kind: StepKind;
  text: string;
  itemId: string;
}

/** Tokens and cost of an agent in a branch (`null` fields: unknown). */
export interface BranchUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** USD, when the agent's model has a price. */
  cost: number | null;
}

/** One agent's part of a branch. */
export interface AgentBranch {
  agent: string;
  steps: BranchStep[];
  finalAnswer: string | null;
  usage: BranchUsage;
}

/** One branch: the original chat or the fork. */
export interface Branch {
  chatId: string;
  agents: AgentBranch[];
}

/** One aligned row of an agent's steps: the same step, a changed one, or one on one side only. */
export interface AlignedRow {
  original: BranchStep | null;
  replay: BranchStep | null;
  same: boolean;
}

/** One difference between the branches. */
export interface ReplayDifference {
  agent: string;
  kind: StepKind | 'final_answer' | 'usage';
  /** The original's side (text, or usage), or null when the step is only in the replay. */
  original: string | BranchUsage | null;
  replay: string | BranchUsage | null;
  originalItemId?: string;
  replayItemId?: string;
}

const TEXT_LIMIT = 4000;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
      .join('');
  }
  if (content && typeof content === 'object' && 'text' in content)
    return String((content as { text: unknown }).text);
  return '';
}

/** An item as a step (kind and text). */
export function stepOf(entry: ThreadItem): BranchStep {
  const item = entry.item as unknown as Record<string, unknown>;
  const cut = (text: string) => (text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text);
  if (item.role === 'user' || item.role === 'system')
    return { kind: 'input', text: cut(contentText(item.content)), itemId: entry.id };
  if (item.role === 'assistant')
    return { kind: 'message', text: cut(contentText(item.content)), itemId: entry.id };
  if (item.type === 'function_call') {
    let args = String(item.arguments ?? '');
    try {
      args = JSON.stringify(JSON.parse(args));
    } catch {
      // Not JSON: shown as it is.
    }
    return { kind: 'tool_call', text: cut(`${String(item.name)}(${args})`), itemId: entry.id };
  }
  if (item.type === 'function_call_result')
    return { kind: 'tool_result', text: cut(contentText(item.output)), itemId: entry.id };
  return { kind: 'other', text: String(item.type ?? 'item'), itemId: entry.id };
}

/** Each agent's steps of a turn's items (threads in the order their turn items started). */
export function agentSteps(
  turn: ReadonlyMap<string, readonly ThreadItem[]>,
): Map<string, BranchStep[]> {
  const threads = [...turn.values()].sort((a, b) =>
    (a[0]?.meta?.createdAt ?? '').localeCompare(b[0]?.meta?.createdAt ?? ''),
  );
  const steps = new Map<string, BranchStep[]>();
  for (const items of threads) {
    for (const entry of items) {
      const agent = entry.meta?.agent ?? '?';
      steps.set(agent, [...(steps.get(agent) ?? []), stepOf(entry)]);
    }
  }
  return steps;
}

/** The last message an agent sent, or null. */
export function finalAnswerOf(steps: readonly BranchStep[]): string | null {
  return steps.findLast((step) => step.kind === 'message')?.text ?? null;
}

/** Aligns two step lists: common steps (LCS) stay paired; the steps between pair up in order. */
export function alignSteps(
  original: readonly BranchStep[],
  replay: readonly BranchStep[],
): AlignedRow[] {
  const key = (step: BranchStep) => `${step.kind}\u0000${step.text}`;
  const n = original.length;
  const m = replay.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        key(original[i]!) === key(replay[j]!)
          ? lcs[i + 1]![j + 1]! + 1
          : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: AlignedRow[] = [];
  let gapOriginal: BranchStep[] = [];
  let gapReplay: BranchStep[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(gapOriginal.length, gapReplay.length); k++) {
      rows.push({ original: gapOriginal[k] ?? null, replay: gapReplay[k] ?? null, same: false });
    }
    gapOriginal = [];
    gapReplay = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && key(original[i]!) === key(replay[j]!)) {
      flush();
      rows.push({ original: original[i]!, replay: replay[j]!, same: true });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      gapOriginal.push(original[i++]!);
    } else {
      gapReplay.push(replay[j++]!);
    }
  }
  flush();
  return rows;
}

function sameUsage(a: BranchUsage, b: BranchUsage): boolean {
  if (a.inputTokens === null || b.inputTokens === null) return true;
  return (
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    (a.cost === null || b.cost === null || Math.abs(a.cost - b.cost) < 1e-12)
  );
}

/** Exactly what differs between two branches, agent by agent, in step order. */
export function differencesOf(original: Branch, replay: Branch): ReplayDifference[] {
  const names = [...original.agents, ...replay.agents].map((entry) => entry.agent);
  const differences: ReplayDifference[] = [];
  for (const agent of new Set(names)) {
    const left = original.agents.find((entry) => entry.agent === agent);
    const right = replay.agents.find((entry) => entry.agent === agent);
    for (const row of alignSteps(left?.steps ?? [], right?.steps ?? [])) {
      if (row.same) continue;
      differences.push({
        agent,
        kind: (row.original ?? row.replay)!.kind,
        original: row.original?.text ?? null,
        replay: row.replay?.text ?? null,
        ...(row.original ? { originalItemId: row.original.itemId } : {}),
        ...(row.replay ? { replayItemId: row.replay.itemId } : {}),
      });
    }
    const before = left?.finalAnswer ?? null;
    const after = right?.finalAnswer ?? null;
    if (before !== after)
      differences.push({ agent, kind: 'final_answer', original: before, replay: after });
    if (left && right && !sameUsage(left.usage, right.usage))
      differences.push({ agent, kind: 'usage', original: left.usage, replay: right.usage });
  }
  return differences;
}

/** One agent in both branches: its steps aligned row by row, its final answers and its usage. */
export interface AgentSideBySide {
  agent: string;
  rows: AlignedRow[];
  finalAnswer: { original: string | null; replay: string | null; same: boolean };
  usage: { original: BranchUsage | null; replay: BranchUsage | null };
}

/** Every agent of either branch side by side (in the order they first appear). */
export function sideBySide(original: Branch, replay: Branch): AgentSideBySide[] {
  const names = new Set([...original.agents, ...replay.agents].map((entry) => entry.agent));
  return [...names].map((agent) => {
    const left = original.agents.find((entry) => entry.agent === agent);
    const right = replay.agents.find((entry) => entry.agent === agent);
    const before = left?.finalAnswer ?? null;
    const after = right?.finalAnswer ?? null;
    return {
      agent,
      rows: alignSteps(left?.steps ?? [], right?.steps ?? []),
      finalAnswer: { original: before, replay: after, same: before === after },
      usage: { original: left?.usage ?? null, replay: right?.usage ?? null },
    };
  });
}
