/**
 * Rebuilds the delegation tree of past turns from stored thread items (their `meta` names each
 * item's run, agent, caller and parent run), so that a reloaded chat shows who talked to whom,
 * not just the final answer. Pure, for the chat view and its tests.
 * @module
 */
import { itemKind } from './items.js';
import { emptyTree, messageText, outputText, type RunNode, type StreamTree } from './streamTree.js';
import type { ThreadItem } from './types.js';

type ToolEntry = Extract<RunNode['entries'][number], { kind: 'tool_call' }>;

function recipientOf(args: string): string | undefined {
  try {
    const parsed = JSON.parse(args) as { recipient?: unknown };
    return typeof parsed.recipient === 'string' ? parsed.recipient : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The trees of the top-level runs found in `items` (every thread of a chat), keyed by the root
 * run's id. The root run's last text (the final answer, shown on its own) is left out.
 */
export function storedTrees(items: readonly ThreadItem[]): Record<string, StreamTree> {
  const tree = emptyTree();
  const calls = new Map<string, ToolEntry>();
  const ordered = [...items].sort((a, b) =>
    (a.meta?.createdAt ?? '').localeCompare(b.meta?.createdAt ?? ''),
  );
  for (const { item, meta } of ordered) {
    if (!meta) continue;
    const run = (tree.runs[meta.runId] ??= {
      runId: meta.runId,
      agent: meta.agent,
      callerAgent: meta.callerAgent,
      parentRunId: meta.parentRunId,
      depth: 0,
      message: '',
      status: 'completed',
      entries: [],
    });
    const kind = itemKind(item);
    if (kind === 'message' && item.role === 'user') run.message ||= messageText(item.content);
    else if (kind === 'message') {
      const text = messageText(item.content);
      if (text) run.entries.push({ kind: 'text', text, open: false });
    } else if (kind === 'tool_call' || kind === 'handoff') {
      const entry: ToolEntry = {
        kind: 'tool_call',
        callId: String(item.callId ?? ''),
        name: String(item.name ?? ''),
        arguments: String(item.arguments ?? ''),
        children: [],
      };
      calls.set(entry.callId, entry);
      run.entries.push(entry);
    } else if (kind === 'tool_result' || kind === 'error') {
      const entry = calls.get(String(item.callId ?? ''));
      if (entry) entry.output = outputText(item.output);
    }
  }
  const runs = Object.values(tree.runs);
  for (const run of runs) {
    const parent = run.parentRunId ? tree.runs[run.parentRunId] : undefined;
    if (!parent) continue;
    const call = parent.entries.find(
      (e): e is ToolEntry =>
        e.kind === 'tool_call' &&
        e.name === 'send_message' &&
        e.children.length === 0 &&
        recipientOf(e.arguments) === run.agent,
    );
    if (call) call.children.push(run.runId);
    else parent.entries.push({ kind: 'run', runId: run.runId });
  }
  const depth = (run: RunNode, seen = 0): number => {
    const parent = run.parentRunId ? tree.runs[run.parentRunId] : undefined;
    return parent && seen < 50 ? depth(parent, seen + 1) + 1 : 0;
  };
  const out: Record<string, StreamTree> = {};
  for (const run of runs) {
    run.depth = depth(run);
    if (run.depth !== 0) continue;
    const last = run.entries.map((e) => e.kind).lastIndexOf('text');
    const root = last >= 0 ? { ...run, entries: run.entries.filter((_, i) => i !== last) } : run;
    out[run.runId] = { ...tree, runs: { ...tree.runs, [run.runId]: root }, roots: [run.runId] };
  }
  return out;
}
