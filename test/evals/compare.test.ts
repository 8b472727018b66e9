import { describe, expect, it } from 'vitest';
import { compare } from '../../src/evals/compare.js';
import { renderComparison, renderResults } from '../../src/evals/report.js';
import { runEval } from '../../src/evals/run.js';
import type { EvalTarget } from '../../src/evals/targets.js';
import type { EvalDataset } from '../../src/evals/types.js';

function target(answers: Record<string, string>): EvalTarget {
  return {
    name: 'fixed',
    async run(turns) {
      const output = answers[turns[0]!] ?? '';
      return {
        output,
        finalOutput: output,
        toolCalls: [],
        delegations: [],
        modelCalls: 1,
        maxDepth: 0,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        latencyMs: 0,
      };
    },
  };
}

const dataset: EvalDataset = {
  file: 'cases.jsonl',
  cases: [
    { id: 'same', input: 'a', expected: 'A' },
    {
      id: 'worse',
      input: 'b',
      scorers: [{ type: 'contains', value: ['B', 'C'] }, 'exact'],
      expected: 'B C',
    },
    { id: 'better', input: 'c', expected: 'C' },
  ],
};

describe('compare', () => {
  it('shows per-case and per-scorer changes, and which cases regressed', async () => {
    const a = await runEval({
      dataset,
      target: target({ a: 'A', b: 'B C', c: 'nope' }),
      resultsDir: false,
    });
    const b = await runEval({
      dataset: { ...dataset, cases: [...dataset.cases.slice(0, 2)] },
      target: target({ a: 'A', b: 'B' }),
      resultsDir: false,
    });
    const comparison = compare(a, b);
    expect(comparison.regressed).toEqual(['worse']);
    expect(comparison.improved).toEqual([]);
    const worse = comparison.cases.find((c) => c.id === 'worse')!;
    expect(worse).toMatchObject({ in: 'both', a: 1, b: 0.25, delta: -0.75 });
    expect(worse.scorers).toEqual([
      {
        scorer: 'contains',
        a: 1,
        b: 0.5,
        delta: -0.5,
        reasonA: 'the answer contains "B", "C"',
        reasonB: 'the answer lacks "C"',
      },
      {
        scorer: 'exact',
        a: 1,
        b: 0,
        delta: -1,
        reasonA: 'the answer equals the expected text',
        reasonB: 'expected "B C", got "B"',
      },
    ]);
    expect(comparison.cases.find((c) => c.id === 'better')).toMatchObject({ in: 'a', a: 0 });
    expect(comparison.scorers.find((s) => s.scorer === 'exact')).toMatchObject({
      a: 2 / 3,
      b: 0.5,
    });
    const table = renderComparison(comparison).join('\n');
    expect(table).toMatch(/worse +\(mean\) +1\.00 +0\.25 +-0\.75/);
    expect(table).toMatch(/better +\(mean\) +0\.00 +– +only in a/);
    expect(table).toContain('regressed: worse');
  });

  it('renders a run as a table with what fell below 1', async () => {
    const results = await runEval({
      dataset,
      target: target({ a: 'A', b: 'B', c: 'C' }),
      threshold: 0.9,
      resultsDir: false,
    });
    const text = renderResults(results).join('\n');
    expect(text).toMatch(/^case +mode +exact +contains +mean$/m);
    expect(text).toContain('worse / contains: the answer lacks "C"');
    expect(text).toMatch(/mean 0\.750 \(threshold 0\.9\) +3 cases × 1 +FAILED: mean/);
  });
});
