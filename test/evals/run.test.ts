import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from '../../src/evals/run.js';
import type { EvalTarget } from '../../src/evals/targets.js';
import type { EvalDataset, EvalTranscript } from '../../src/evals/types.js';
import { readResults } from '../../src/evals/results.js';
import { demoTarget, tempDir } from './helpers.js';

/** A target answering each turn with a fixed text after `delayMs`, counting runs at once. */
function echoTarget(answer: (turns: readonly string[]) => string, delayMs = 0) {
  const seen = { running: 0, most: 0, runs: 0 };
  const target: EvalTarget = {
    name: 'echo',
    async run(turns, { model }): Promise<EvalTranscript> {
      seen.running += 1;
      seen.runs += 1;
      seen.most = Math.max(seen.most, seen.running);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      seen.running -= 1;
      if (turns[0] === 'boom') throw new Error('the agency fell over');
      const output = model ? 'replayed' : answer(turns);
      return {
        output,
        finalOutput: output,
        toolCalls: [],
        delegations: [],
        modelCalls: 1,
        maxDepth: 0,
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        latencyMs: delayMs,
      };
    },
  };
  return { target, seen };
}

const dataset: EvalDataset = {
  file: 'cases.jsonl',
  cases: [
    { id: 'a', input: 'x', expected: 'X' },
    {
      id: 'b',
      input: 'y',
      scorers: [{ type: 'contains', value: ['Y', 'Z'] }],
      thresholds: { contains: 0.5 },
    },
    { id: 'c', input: 'z' },
  ],
};

describe('runEval', () => {
  it('scores each case and scorer with a reason, and the run mean', async () => {
    const { target } = echoTarget((turns) => turns[0]!.toUpperCase());
    const results = await runEval({ dataset, target, resultsDir: false });
    expect(results.cases.map((c) => [c.id, c.mean, c.passed])).toEqual([
      ['a', 1, true],
      ['b', 0.5, true],
      ['c', 1, true],
    ]);
    expect(results.cases[1]!.scores[0]).toMatchObject({
      scorer: 'contains',
      reason: 'the answer lacks "Z"',
      threshold: 0.5,
    });
    expect(results.cases[2]!.scores[0]).toMatchObject({ scorer: 'completed', mean: 1 });
    expect(results.mean).toBeCloseTo(2.5 / 3);
    expect(results.passed).toBe(true);
  });

  it('fails below the run threshold and below a per-scorer threshold', async () => {
    const { target } = echoTarget((turns) => turns[0]!.toUpperCase());
    expect(
      (await runEval({ dataset, target, threshold: 0.9, resultsDir: false })).failures,
    ).toEqual(['mean']);
    const strict: EvalDataset = {
      ...dataset,
      cases: dataset.cases.map((c) =>
        c.id === 'b' ? { ...c, thresholds: { contains: 0.75 } } : c,
      ),
    };
    const results = await runEval({ dataset: strict, target, threshold: 0.5, resultsDir: false });
    expect(results).toMatchObject({ passed: false, failures: ['b/contains'] });
  });

  it('repeats each case and keeps concurrency to its limit', async () => {
    const { target, seen } = echoTarget((turns) => turns[0]!.toUpperCase(), 20);
    const results = await runEval({
      dataset,
      target,
      repeat: 4,
      concurrency: 2,
      resultsDir: false,
    });
    expect(seen).toMatchObject({ runs: 12, most: 2 });
    expect(results.cases[0]!.runs).toHaveLength(4);
    expect(results.repeat).toBe(4);
  });

  it('scores a failing case 0 with the error as the reason', async () => {
    const { target } = echoTarget(() => 'X');
    const results = await runEval({
      dataset: { file: 'd', cases: [{ id: 'x', input: 'boom', expected: 'X' }] },
      target,
      resultsDir: false,
    });
    expect(results.cases[0]!.scores[0]).toMatchObject({
      mean: 0,
      reason: 'the case failed: the agency fell over',
    });
    expect(results.cases[0]!.runs[0]!.error).toBe('the agency fell over');
    expect(results).toMatchObject({ passed: false, failures: ['x/error'] });
  });

  it('writes the results under the results directory by run id, and to --out', async () => {
    const dir = await tempDir();
    const { target } = echoTarget((turns) => turns[0]!.toUpperCase());
    const out = path.join(dir, 'out', 'results.json');
    const results = await runEval({ dataset, target, resultsDir: path.join(dir, 'evals'), out });
    expect(await readdir(path.join(dir, 'evals'))).toEqual([`${results.runId}.json`]);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(results);
    expect(await readResults(results.runId, path.join(dir, 'evals'))).toEqual(results);
    await expect(readResults('eval_nope', dir)).rejects.toThrow(
      /neither a results file nor a run id/,
    );
  });

  it('checks its options and the cassettes before running anything', async () => {
    const { target, seen } = echoTarget(() => 'X');
    await expect(runEval({ dataset, target, repeat: 0, resultsDir: false })).rejects.toThrow(
      /repeat must be/,
    );
    await expect(runEval({ dataset, target, threshold: 2, resultsDir: false })).rejects.toThrow(
      /threshold must be from 0 to 1/,
    );
    const missing: EvalDataset = {
      file: '/tmp/cases.jsonl',
      cases: [{ id: 'm', input: 'x', cassette: 'gone.cassette.json' }],
    };
    await expect(runEval({ dataset: missing, target, resultsDir: false })).rejects.toThrow(
      /cases\.jsonl: case "m": cassette gone\.cassette\.json: .*or run with --live/,
    );
    expect(seen.runs).toBe(0);
    // --live ignores the cassette altogether.
    const live = await runEval({ dataset: missing, target, live: true, resultsDir: false });
    expect(live.cases[0]!.mode).toBe('live');
    await expect(runEval({ dataset, target, tags: ['none'], resultsDir: false })).rejects.toThrow(
      /no cases tagged none/,
    );
  });

  it('runs multi-turn cases in one chat of the demo agency', async () => {
    const results = await runEval({
      dataset: {
        file: 'd',
        cases: [
          {
            id: 't',
            input: ['Write about tides.', 'Write about wind.'],
            scorers: [
              { type: 'contains', value: 'wind' },
              { type: 'max_turns', max: 14 },
            ],
          },
        ],
      },
      target: demoTarget(),
      resultsDir: false,
    });
    expect(results.cases[0]!.runs[0]!.modelCalls).toBe(14);
    expect(results.mean).toBe(1);
  });
});
