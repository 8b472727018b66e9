import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import type { EnsembleCatalog } from '../../src/server/ensembleCatalog.js';
import { EnsembleRuns } from '../../src/server/ensembleRuns.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { tempDir } from './helpers.js';

const OUTPUT = 256 * 1024;

function catalogOf(ensemble: Ensemble): EnsembleCatalog {
  return {
    names: async () => [ensemble.name],
    load: async () => ensemble,
    findByEnsembleName: async (name) => (name === ensemble.name ? ensemble : null),
  };
}

async function finish(runs: EnsembleRuns, runId: string): Promise<void> {
  for await (const _ of runs.follow(runId)) {
    // drain until the run ends
  }
}

describe('EnsembleRuns memory', () => {
  it('keeps the events of live and recent runs only, within the byte budget; older runs come from the store', async () => {
    const dir = tempDir();
    const ensemble = parseEnsemble(
      'name: big\nagents:\n  - name: writer\n    model_profile: p\n    system_prompt: Write.\n',
      { file: `${dir}/big.yaml`, baseDir: dir },
    );
    const model = new ScriptedModel(() => 'y'.repeat(OUTPUT));
    const maxBytes = 4 * 1024 * 1024;
    const runs = new EnsembleRuns({
      store: new MemoryStore(),
      catalog: catalogOf(ensemble),
      createModel: () => model,
      recentRuns: { max: 50, maxBytes },
    });
    const peaks: number[] = [];
    for (let n = 0; n < 40; n++) {
      await runs.start('big', { runId: `r${n}`, input: 'go' });
      await finish(runs, `r${n}`);
      peaks.push(runs.retained.bytes);
    }
    // 40 runs of > 256 KiB events each would be > 10 MiB; retained stays within the budget.
    expect(Math.max(...peaks)).toBeLessThanOrEqual(maxBytes);
    expect(runs.retained.runs).toBeLessThan(40);
    expect(runs.retained.runs).toBeGreaterThan(0);
    // The newest run replays its events from memory ...
    const recent: string[] = [];
    for await (const [, event] of runs.follow('r39')) recent.push(event.type);
    expect(recent.length).toBeGreaterThan(1);
    expect(recent.at(-1)).toBe('ensemble_finished');
    // ... the oldest was evicted and is served from the store: its summary and final event.
    expect(await runs.state('r0')).toMatchObject({ runId: 'r0', status: 'finished' });
    const old: string[] = [];
    for await (const [, event] of runs.follow('r0')) old.push(event.type);
    expect(old).toEqual(['ensemble_finished']);
    await runs.close();
  }, 60_000);

  it('bounds the number of recent runs', async () => {
    const dir = tempDir();
    const ensemble = parseEnsemble(
      'name: small\nagents:\n  - name: writer\n    model_profile: p\n    system_prompt: Write.\n',
      { file: `${dir}/small.yaml`, baseDir: dir },
    );
    const runs = new EnsembleRuns({
      store: new MemoryStore(),
      catalog: catalogOf(ensemble),
      createModel: () => new ScriptedModel(() => 'ok'),
      recentRuns: { max: 3 },
    });
    for (let n = 0; n < 8; n++) {
      await runs.start('small', { runId: `s${n}`, input: 'go' });
      await finish(runs, `s${n}`);
    }
    expect(runs.retained.runs).toBe(3);
    await runs.close();
  });
});
