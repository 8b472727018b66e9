import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { runEval } from '../../src/evals/run.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { installEvalMatchers } from '../../src/testing/evalMatchers.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { demoTarget } from './helpers.js';

beforeAll(() => installEvalMatchers());

describe('eval matchers', () => {
  it('toDelegateTo and toCallTool read an agency response', async () => {
    const agency = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
    const result = await agency.getResponse('Write a short brief about tidal energy.');
    expect(result).toDelegateTo(['Researcher', 'Writer', 'Editor']);
    expect(result).toDelegateTo('Editor', { from: 'Writer' });
    expect(result).not.toDelegateTo(['Writer', 'Researcher']);
    expect(result).toDelegateTo(['Writer', 'Researcher'], { ordered: false });
    expect(result).toCallTool('send_message', { recipient: 'Writer' });
    expect(result).not.toCallTool('send_message', { recipient: 'Nobody' });
    expect(() => expect(result).toDelegateTo(['Editor', 'Researcher'])).toThrow(
      'expected the path Editor → Researcher, got Researcher → Writer → Editor',
    );
    expect(() => expect({}).toCallTool('x')).toThrow(/Expected an agency response/);
  });

  it('toScoreAtLeast reads run results, a scorer, a case or a score', async () => {
    const results = await runEval({
      dataset: {
        file: 'd',
        cases: [
          {
            id: 'c',
            input: 'Write about wind.',
            scorers: [
              { type: 'contains', value: ['wind', 'solar'] },
              { type: 'max_turns', max: 7 },
            ],
          },
        ],
      },
      target: demoTarget(),
      resultsDir: false,
    });
    expect(results).toScoreAtLeast(0.75);
    expect(results).not.toScoreAtLeast(0.8);
    expect(results).toScoreAtLeast(1, 'max_turns');
    expect(results.cases[0]).toScoreAtLeast(0.5, 'contains');
    expect({ score: 0.3, reason: 'x' }).not.toScoreAtLeast(0.5);
    expect(() => expect(results).toScoreAtLeast(0.9)).toThrow(
      'expected the run mean (0.750) to be at least 0.9',
    );
    expect(() => expect(results).toScoreAtLeast(1, 'judge')).toThrow(/no scorer "judge"/);
  });
});
