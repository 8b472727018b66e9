/**
 * Folds the tagged events of an agency stream into a tree of runs: each run's text (as it
 * streams), tool calls and their outputs, with the run a send_message started nested under that
 * call. Pure, so the chat view and the tests share it.
 * @module
 */
import type {
  AgencyResponse,
  AgencyStreamEvent,
  ErrorInfo,
  ProtocolItem,
  UsageSummary,
} from './types.js';

/** One step of a run, in order. */
export type RunEntry =
  | { kind: 'text'; text: string; open: boolean }
  | {
      kind: 'tool_call';
      callId: string;
      name: string;
      arguments: string;
      output?: string;
      /** Runs this call started (send_message). */
      children: string[];
    }
  | { kind: 'run'; runId: string }
  | { kind: 'handoff'; to: string };

/** One agent run of the call tree. */
export interface RunNode {
  runId: string;
  agent: string;
  callerAgent: string | null;
  parentRunId: string | null;
  depth: number;
  message: string;
  status: 'running' | 'completed' | 'interrupted' | 'failed';
  entries: RunEntry[];
  usage?: UsageSummary;
  error?: ErrorInfo;
}

/** The state of one streamed call. */
export interface StreamTree {
  runs: Record<string, RunNode>;
  /** Top-level runs (the entry point's, and a resumed one), in order. */
  roots: string[];
  routedTo?: string;
  result?: AgencyResponse;
  error?: ErrorInfo;
  events: number;
}

/** An empty tree. */
export function emptyTree(): StreamTree {
  return { runs: {}, roots: [], events: 0 };
}

/** The text of a tool output item (a string, `{ type: 'text', text }` or anything JSON). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object') {
    const text = (output as { text?: unknown }).text;
    if (typeof text === 'string') return text;
    if (Array.isArray(output)) return output.map(outputText).join('');
  }
  return output === undefined ? '' : JSON.stringify(output);
}

/** The text of a message item's content. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => {
        const p = part as { text?: unknown; refusal?: unknown };
        return typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : '';
      })
      .join('');
  return '';
}

function recipientOf(args: string): string | undefined {
  try {
    const parsed = JSON.parse(args) as { recipient?: unknown };
    return typeof parsed.recipient === 'string' ? parsed.recipient : undefined;
  } catch {
    return undefined;
  }
}

function closeText(run: RunNode): void {
  const last = run.entries[run.entries.length - 1];
  if (last?.kind === 'text') last.open = false;
}

/** Places a new nested run under the caller's send_message call to its agent that has none yet. */
function attach(parent: RunNode, child: RunNode): void {
  const call = parent.entries.find(
    (entry): entry is Extract<RunEntry, { kind: 'tool_call' }> =>
      entry.kind === 'tool_call' &&
      entry.name === 'send_message' &&
      entry.output === undefined &&
      recipientOf(entry.arguments) === child.agent &&
      !entry.children.some((id) => id === child.runId),
  );
  if (call) call.children.push(child.runId);
  else parent.entries.push({ kind: 'run', runId: child.runId });
}

function onItem(run: RunNode, name: string, item: ProtocolItem): void {
  if (name === 'tool_called' && item.type === 'function_call') {
    closeText(run);
    run.entries.push({
      kind: 'tool_call',
      callId: String(item.callId ?? item.id ?? ''),
      name: String(item.name ?? 'tool'),
      arguments: String(item.arguments ?? ''),
      children: [],
    });
  } else if (name === 'tool_output') {
    const call = run.entries.find(
      (entry) => entry.kind === 'tool_call' && entry.callId === String(item.callId ?? ''),
    );
    if (call?.kind === 'tool_call') call.output = outputText(item.output);
  } else if (name === 'message_output_created') {
    // Models that do not stream text still produce the message: show it once.
    const last = run.entries[run.entries.length - 1];
    if (last?.kind !== 'text') {
      const text = messageText(item.content);
      if (text) run.entries.push({ kind: 'text', text, open: false });
    }
  } else if (name === 'handoff_occurred') {
    run.entries.push({ kind: 'handoff', to: String(item.targetAgent ?? item.name ?? 'agent') });
  }
}

/** Returns the tree with one more event applied (the input is not changed). */
export function applyEvent(previous: StreamTree, event: AgencyStreamEvent): StreamTree {
  const tree: StreamTree = structuredClone(previous);
  tree.events += 1;
  switch (event.type) {
    case 'entry_routed':
      tree.routedTo = event.agent;
      return tree;
    case 'run_completed':
      tree.result = event.result;
      return tree;
    case 'error':
      tree.error = event.error;
      return tree;
    case 'agent_run_started': {
      const run: RunNode = {
        runId: event.runId,
        agent: event.agent,
        callerAgent: event.callerAgent,
        parentRunId: event.parentRunId,
        depth: event.depth,
        message: event.message,
        status: 'running',
        entries: [],
      };
      const existing = tree.runs[event.runId];
      if (existing) {
        existing.status = 'running'; // a resumed run keeps what it had
        return tree;
      }
      tree.runs[event.runId] = run;
      const parent = event.parentRunId ? tree.runs[event.parentRunId] : undefined;
      if (parent) attach(parent, run);
      else tree.roots.push(event.runId);
      return tree;
    }
    default:
      break;
  }
  const run = tree.runs[event.runId];
  if (!run) return tree;
  switch (event.type) {
    case 'raw_model_stream_event': {
      if (event.data.type === 'output_text_delta' && typeof event.data.delta === 'string') {
        const last = run.entries[run.entries.length - 1];
        if (last?.kind === 'text' && last.open) last.text += event.data.delta;
        else run.entries.push({ kind: 'text', text: event.data.delta, open: true });
      } else if (event.data.type === 'response_done') closeText(run);
      break;
    }
    case 'run_item_stream_event':
      onItem(run, event.name, event.item);
      break;
    case 'agent_updated_stream_event':
      run.entries.push({ kind: 'handoff', to: event.newAgent });
      break;
    case 'agent_run_completed':
      closeText(run);
      run.status = 'completed';
      run.usage = event.usage;
      break;
    case 'agent_run_interrupted':
      run.status = 'interrupted';
      break;
    case 'agent_run_failed':
      run.status = 'failed';
      run.error = event.error;
      break;
    default:
      break;
  }
  return tree;
}
