import { describe, expect, it } from 'vitest';
import {
  finishedLine,
  nodeLine,
  renderRunTree,
  RunTree,
} from '../../../src/cli/progress/runTree.js';
import type { SpanRecord } from '../../../src/stores/traceStore.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
function span(
  id: string,
  parent: string | null,
  kind: SpanRecord['kind'],
  name: string,
  attributes: Record<string, unknown> = {},
): SpanRecord {
  return { spanId: id, traceId: 't', parentId: parent, kind, name, startedAt: at(0), attributes };
}

describe('RunTree', () => {
  it('builds the tree of runs through send_message spans and counts tokens per run', () => {
    const tree = new RunTree();
    tree.start(span('a', null, 'agent', 'Boss'));
    tree.start(span('g1', 'a', 'generation', 'm'));
    expect(nodeLine(tree.roots[0]!, T0 + 1500, 0)).toBe('⠋ Boss  1.5 s  thinking…');
    tree.end({
      ...span('g1', 'a', 'generation', 'm', { inputTokens: 10, outputTokens: 5 }),
      endedAt: at(100),
    });
    tree.start(span('s', 'a', 'send_message', 'send_message'));
    tree.start(span('w', 's', 'agent', 'Worker'));
    const ended = tree.end({ ...span('w', 's', 'agent', 'Worker'), endedAt: at(2000) });
    expect(ended!.label).toBe('Worker');
    expect(renderRunTree(tree, T0 + 3000, 1)).toEqual([
      '⠙ Boss  3.0 s  15 tokens',
      '└─ ✓ Worker  2.0 s',
    ]);
    expect(finishedLine(ended!, 'Boss')).toBe('✓ Worker (asked by Boss)  2.0 s');
  });

  it('shows ensemble steps and agents, and failures', () => {
    const tree = new RunTree();
    tree.start(span('r', null, 'ensemble_run', 'dag'));
    tree.start(span('s1', 'r', 'ensemble_step', 'step 1'));
    tree.start(span('x', 's1', 'ensemble_agent', 'x'));
    tree.end({
      ...span('x', 's1', 'ensemble_agent', 'x'),
      endedAt: at(10),
      error: { message: 'no' },
    });
    expect(renderRunTree(tree, T0 + 20)).toEqual([
      '⠋ ensemble dag  20 ms',
      '└─ ⠋ step 1  20 ms',
      '   └─ ✗ x  10 ms',
    ]);
  });

  it('shows tool calls under the agent that made them, running then done', () => {
    const tree = new RunTree();
    tree.start(span('a', null, 'agent', 'Researcher'));
    const tool = tree.start(span('f', 'a', 'function', 'lookup'));
    expect(tool).toMatchObject({ kind: 'tool', label: 'tool lookup' });
    expect(renderRunTree(tree, T0 + 40)).toEqual([
      '⠋ Researcher  40 ms',
      '└─ ⠋ tool lookup  40 ms  running…',
    ]);
    tree.start(span('s', 'a', 'send_message', 'send_message'));
    tree.start(span('w', 's', 'agent', 'Writer'));
    const ended = tree.end({ ...span('f', 'a', 'function', 'lookup'), endedAt: at(25) });
    expect(finishedLine(ended!, undefined)).toBe('✓ tool lookup  25 ms');
    expect(renderRunTree(tree, T0 + 50)).toEqual([
      '⠋ Researcher  50 ms',
      '├─ ✓ tool lookup  25 ms',
      '└─ ⠋ Writer  50 ms',
    ]);
  });
});
