import { describe, expect, it } from 'vitest';
import {
  alignSteps,
  differencesOf,
  sideBySide,
  type Branch,
  type BranchStep,
} from '../../../src/agency/replay/compare.js';

const step = (kind: BranchStep['kind'], text: string, itemId = text): BranchStep => ({
  kind,
  text,
  itemId,
});
const unknown = { inputTokens: null, outputTokens: null, cost: null };

describe('alignSteps', () => {
  it('pairs the common steps and lines up what changed between them', () => {
    const rows = alignSteps(
      [step('input', 'hi'), step('message', 'old'), step('message', 'bye')],
      [
        step('input', 'hi'),
        step('message', 'new'),
        step('tool_call', 'extra()'),
        step('message', 'bye'),
      ],
    );
    expect(rows.map((r) => [r.original?.text ?? null, r.replay?.text ?? null, r.same])).toEqual([
      ['hi', 'hi', true],
      ['old', 'new', false],
      [null, 'extra()', false],
      ['bye', 'bye', true],
    ]);
  });

  it('keeps steps present on one side only', () => {
    expect(alignSteps([step('message', 'a')], [])).toEqual([
      { original: step('message', 'a'), replay: null, same: false },
    ]);
    expect(alignSteps([], [])).toEqual([]);
  });
});

describe('differencesOf', () => {
  const branch = (chatId: string, answer: string, tokens: number | null): Branch => ({
    chatId,
    agents: [
      {
        agent: 'A',
        steps: [step('input', 'q'), step('message', answer)],
        finalAnswer: answer,
        usage: tokens === null ? unknown : { inputTokens: tokens, outputTokens: 1, cost: null },
      },
    ],
  });

  it('lists nothing for equal branches, and skips usage when one side is unknown', () => {
    expect(differencesOf(branch('a', 'x', 5), branch('b', 'x', 5))).toEqual([]);
    expect(differencesOf(branch('a', 'x', null), branch('b', 'x', 9))).toEqual([]);
  });

  it('lists the changed step, the final answer and the usage', () => {
    const differences = differencesOf(branch('a', 'x', 5), branch('b', 'y', 6));
    expect(differences.map((d) => [d.kind, d.original, d.replay])).toEqual([
      ['message', 'x', 'y'],
      ['final_answer', 'x', 'y'],
      [
        'usage',
        { inputTokens: 5, outputTokens: 1, cost: null },
        { inputTokens: 6, outputTokens: 1, cost: null },
      ],
    ]);
    expect(differences[0]).toMatchObject({ originalItemId: 'x', replayItemId: 'y' });
    const [a] = sideBySide(branch('a', 'x', 5), branch('b', 'y', 6));
    expect(a).toMatchObject({
      agent: 'A',
      finalAnswer: { original: 'x', replay: 'y', same: false },
    });
    expect(a!.rows.map((r) => r.same)).toEqual([true, false]);
  });

  it('names agents that ran in one branch only', () => {
    const other: Branch = { chatId: 'b', agents: [] };
    expect(differencesOf(branch('a', 'x', 5), other).map((d) => [d.agent, d.kind])).toEqual([
      ['A', 'input'],
      ['A', 'message'],
      ['A', 'final_answer'],
    ]);
  });
});
