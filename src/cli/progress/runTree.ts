/**
 * The live state of an agency call as a tree of agent runs, built from trace spans: who asked
 * whom, which runs are still going, elapsed time and tokens. Pure (no terminal); see
 * `liveProgress.ts` for the rendering.
 * @module
 */
import type { SpanRecord } from '../../stores/traceStore.js';
import { formatDuration } from '../traceTree.js';

/** One agent run (or ensemble step/agent, or tool call) in the tree. */
export interface RunNode {
  spanId: string;
  /** A run of an agent (or an ensemble's run, step or agent), or a call of a function tool. */
  kind: 'run' | 'tool';
  label: string;
  startedAt: number;
  endedAt?: number;
  inputTokens: number;
  outputTokens: number;
  failed: boolean;
  /** Model calls in flight in this run. */
  activeCalls: number;
  children: RunNode[];
}

const RUN_KINDS = new Set(['agent', 'ensemble_run', 'ensemble_step', 'ensemble_agent']);

/** What a node is called: the agent, `ensemble NAME`, `step N` (the span's own name), `tool NAME`. */
function labelOf(span: SpanRecord): string {
  if (span.kind === 'function') return `tool ${span.name}`;
  if (span.kind === 'ensemble_run') return `ensemble ${span.name}`;
  return span.name;
}

/** Builds and updates the tree from span starts and ends. */
export class RunTree {
  readonly roots: RunNode[] = [];
  readonly #nodes = new Map<string, RunNode>();
  /** For every span seen: the run node it belongs to. */
  readonly #owner = new Map<string, RunNode | undefined>();

  /** Records a started span; returns the new run node, if it is a run. */
  start(span: SpanRecord): RunNode | undefined {
    const owner = span.parentId ? this.#owner.get(span.parentId) : undefined;
    const tool = span.kind === 'function';
    if (!RUN_KINDS.has(span.kind) && !tool) {
      this.#owner.set(span.spanId, owner);
      if (span.kind === 'generation' && owner) owner.activeCalls += 1;
      return undefined;
    }
    const node: RunNode = {
      spanId: span.spanId,
      kind: tool ? 'tool' : 'run',
      label: labelOf(span),
      startedAt: Date.parse(span.startedAt) || Date.now(),
      inputTokens: 0,
      outputTokens: 0,
      failed: false,
      activeCalls: 0,
      children: [],
    };
    this.#nodes.set(span.spanId, node);
    this.#owner.set(span.spanId, node);
    (owner ? owner.children : this.roots).push(node);
    return node;
  }

  /** Records an ended span; returns the run node when a run ended. */
  end(span: SpanRecord): RunNode | undefined {
    const node = this.#nodes.get(span.spanId);
    const owner = this.#owner.get(span.spanId);
    if (span.kind === 'generation' && owner) {
      owner.activeCalls = Math.max(0, owner.activeCalls - 1);
      owner.inputTokens += Number(span.attributes.inputTokens ?? 0);
      owner.outputTokens += Number(span.attributes.outputTokens ?? 0);
    }
    if (!node) return undefined;
    node.endedAt = Date.parse(span.endedAt ?? '') || Date.now();
    node.failed = Boolean(span.error);
    return node;
  }
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** One line of a node: status, name, elapsed time, tokens, and what it is doing. */
export function nodeLine(node: RunNode, now: number, frame = 0): string {
  const done = node.endedAt !== undefined;
  const status = done ? (node.failed ? '✗' : '✓') : SPINNER[frame % SPINNER.length]!;
  const elapsed = formatDuration((node.endedAt ?? now) - node.startedAt);
  const tokens = node.inputTokens + node.outputTokens;
  const doing = !done && node.kind === 'tool' ? '  running…' : '';
  const thinking = !done && node.activeCalls > 0 ? '  thinking…' : doing;
  return `${status} ${node.label}  ${elapsed}${tokens ? `  ${tokens} tokens` : ''}${thinking}`;
}

/** The whole tree as lines, children indented under their caller. */
export function renderRunTree(tree: RunTree, now: number, frame = 0): string[] {
  const lines: string[] = [];
  const visit = (node: RunNode, prefix: string, last: boolean, root: boolean) => {
    lines.push(`${root ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${nodeLine(node, now, frame)}`);
    const childPrefix = root ? '' : `${prefix}${last ? '   ' : '│  '}`;
    node.children.forEach((child, index) =>
      visit(child, childPrefix, index === node.children.length - 1, false),
    );
  };
  tree.roots.forEach((root) => visit(root, '', true, true));
  return lines;
}

/** The line printed off a TTY when a run finishes. */
export function finishedLine(node: RunNode, caller: string | undefined): string {
  const tokens = node.inputTokens + node.outputTokens;
  return (
    `${node.failed ? '✗' : '✓'} ${node.label}${caller ? ` (asked by ${caller})` : ''}` +
    `  ${formatDuration((node.endedAt ?? Date.now()) - node.startedAt)}${tokens ? `  ${tokens} tokens` : ''}`
  );
}
