import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { profilesForEnsemble } from '../../src/cli/commands/ensembles.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cases = [
  { file: 'iterative-analysis.yaml', reason: 'completed', turns: 7 },
  { file: 'parallel-dag.yaml', reason: 'completed', turns: 5 },
  { file: 'script-and-llm.yaml', reason: 'completed', turns: 4 },
];

describe('examples/ensembles run offline with their documented outcome', () => {
  for (const { file, reason, turns } of cases) {
    it(file, async () => {
      const full = path.join(root, 'examples', 'ensembles', file);
      const profiles = await profilesForEnsemble(full, root);
      const result = await runEnsemble(
        await loadEnsemble(full, { profileNames: profiles.names() }),
        { profiles },
      );
      expect(result.error).toBeUndefined();
      expect([result.completion_reason, result.turn_count]).toEqual([reason, turns]);
    });
  }
});
