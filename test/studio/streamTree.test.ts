import { describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import {
  applyEvent,
  emptyTree,
  messageText,
  outputText,
  type RunEntry,
  type StreamTree,
} from '../../studio/src/lib/streamTree.js';
import type { AgencyStreamEvent } from '../../studio/src/lib/types.js';

async function demoTree(): Promise<{ tree: StreamTree; trees: StreamTree[] }> {
  const agency = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
  let tree = emptyTree();
  const trees: StreamTree[] = [];
  for await (const event of agency.getResponseStream('Write a short brief about tides.')) {
    // Events go over SSE as JSON: feed the tree what a browser gets.
    tree = applyEvent(tree, JSON.parse(JSON.stringify(event)) as AgencyStreamEvent);
    trees.push(tree);
  }
  await agency.close();
  return { tree, trees };
}

const calls = (entries: RunEntry[]) =>
  entries.filter((e): e is Extract<RunEntry, { kind: 'tool_call' }> => e.kind === 'tool_call');

describe('applyEvent on the demo agency stream', () => {
  it('nests each run under the send_message that started it', async () => {
    const { tree } = await demoTree();
    expect(tree.roots).toHaveLength(1);
    const root = tree.runs[tree.roots[0]!]!;
    expect(root).toMatchObject({ agent: 'Coordinator', depth: 0, status: 'completed' });
    const [toResearcher, toWriter] = calls(root.entries);
    expect(toResearcher!.children.map((id) => tree.runs[id]!.agent)).toEqual(['Researcher']);
    expect(toWriter!.children.map((id) => tree.runs[id]!.agent)).toEqual(['Writer']);
    const writer = tree.runs[toWriter!.children[0]!]!;
    const [toEditor] = calls(writer.entries);
    const editor = tree.runs[toEditor!.children[0]!]!;
    expect(editor).toMatchObject({ agent: 'Editor', callerAgent: 'Writer', depth: 2 });
    expect(toEditor!.output).toBe(
      editor.entries.find((e) => e.kind === 'text')?.kind === 'text'
        ? (editor.entries.find((e) => e.kind === 'text') as { text: string }).text
        : undefined,
    );
    expect(Object.values(tree.runs).every((run) => run.status === 'completed')).toBe(true);
  });

  it('accumulates streamed text and ends with the result', async () => {
    const { tree, trees } = await demoTree();
    const researcher = Object.values(tree.runs).find((run) => run.agent === 'Researcher')!;
    const text = researcher.entries.filter((e) => e.kind === 'text');
    expect(text).toHaveLength(1);
    expect(text[0]).toMatchObject({ open: false });
    expect((text[0] as { text: string }).text).toContain('tides is predictable years ahead');
    // Text arrived in pieces: some intermediate tree held a shorter, still open text.
    const partial = trees.some((t) => {
      const run = t.runs[researcher.runId];
      const entry = run?.entries.find((e) => e.kind === 'text');
      return (
        entry?.kind === 'text' &&
        entry.open &&
        entry.text.length < (text[0] as { text: string }).text.length
      );
    });
    expect(partial).toBe(true);
    expect(tree.result?.finalOutput).toContain('Here is your brief on tides');
    // The nested run existed before the result did.
    const firstNested = trees.findIndex((t) => Object.values(t.runs).some((r) => r.depth === 1));
    const firstResult = trees.findIndex((t) => t.result !== undefined);
    expect(firstNested).toBeGreaterThanOrEqual(0);
    expect(firstNested).toBeLessThan(firstResult);
  });
});

describe('applyEvent edge cases', () => {
  const tag = { agent: 'A', callerAgent: null, runId: 'r1', parentRunId: null, depth: 0 };

  it('does not change the tree it is given', () => {
    const before = emptyTree();
    const after = applyEvent(before, { type: 'agent_run_started', ...tag, message: 'hi' });
    expect(before.roots).toEqual([]);
    expect(after.roots).toEqual(['r1']);
  });

  it('shows a non-streamed message once, records failures, interruptions and errors', () => {
    let tree = applyEvent(emptyTree(), { type: 'agent_run_started', ...tag, message: 'hi' });
    const message = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello' }],
    };
    tree = applyEvent(tree, {
      type: 'run_item_stream_event',
      ...tag,
      name: 'message_output_created',
      item: message,
    });
    tree = applyEvent(tree, {
      type: 'run_item_stream_event',
      ...tag,
      name: 'message_output_created',
      item: message,
    });
    expect(tree.runs.r1!.entries).toEqual([{ kind: 'text', text: 'Hello', open: false }]);
    tree = applyEvent(tree, { type: 'agent_run_interrupted', ...tag, pending: 1 });
    expect(tree.runs.r1!.status).toBe('interrupted');
    tree = applyEvent(tree, { type: 'agent_run_failed', ...tag, error: { message: 'boom' } });
    expect(tree.runs.r1).toMatchObject({ status: 'failed', error: { message: 'boom' } });
    tree = applyEvent(tree, { type: 'error', error: { message: 'call failed' } });
    expect(tree.error?.message).toBe('call failed');
  });

  it('puts a nested run with no matching send_message after its parent entries', () => {
    let tree = applyEvent(emptyTree(), { type: 'agent_run_started', ...tag, message: 'hi' });
    tree = applyEvent(tree, {
      type: 'agent_run_started',
      agent: 'B',
      callerAgent: 'A',
      runId: 'r2',
      parentRunId: 'r1',
      depth: 1,
      message: 'sub',
    });
    expect(tree.runs.r1!.entries).toEqual([{ kind: 'run', runId: 'r2' }]);
    // Events of unknown runs are counted and ignored.
    const same = applyEvent(tree, {
      type: 'agent_run_completed',
      ...tag,
      runId: 'nope',
      finalOutput: '',
      usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
    expect(same.runs).toEqual(tree.runs);
    expect(same.events).toBe(tree.events + 1);
  });

  it('reads outputs and message content in their several shapes', () => {
    expect(outputText('plain')).toBe('plain');
    expect(outputText({ type: 'text', text: 'wrapped' })).toBe('wrapped');
    expect(outputText([{ type: 'text', text: 'a' }, { text: 'b' }])).toBe('ab');
    expect(outputText({ n: 1 })).toBe('{"n":1}');
    expect(messageText('x')).toBe('x');
    expect(messageText([{ text: 'a' }, { refusal: 'no' }])).toBe('ano');
    expect(messageText(undefined)).toBe('');
  });
});
