import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runEval } from '../../src/evals/run.js';
import { ensembleTarget } from '../../src/evals/targets.js';
import { loadEnsemble } from '../../src/ensembles/load.js';

const examples = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'examples',
  'ensembles',
);

describe('ensembleTarget', () => {
  it('runs an ensemble on each case and scores its last answer', async () => {
    const ensemble = await loadEnsemble(path.join(examples, 'parallel-dag.yaml'));
    const results = await runEval({
      dataset: {
        file: 'ensemble.jsonl',
        cases: [
          {
            id: 'merge',
            input: 'one two\nthree',
            scorers: [
              { type: 'contains', value: '"branches":3' },
              { type: 'max_turns', max: 0 },
            ],
          },
          { id: 'turns', input: ['a', 'b'] },
        ],
      },
      target: ensembleTarget(ensemble),
      resultsDir: false,
    });
    expect(results.target).toBe('ensemble parallel-dag');
    expect(results.cases[0]).toMatchObject({ mean: 1 });
    expect(results.cases[0]!.runs[0]!.output).toMatch(/^\{"report":\{/);
    expect(results.cases[1]!.scores[0]!.reason).toMatch(
      /runs one task per case, but the case has 2 turns/,
    );
  });
});
