import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findEnsembleFile, loadEnsemble } from '../../src/ensembles/load.js';
import { tempDir } from './helpers.js';

let xdg: string | undefined;
beforeEach(() => {
  xdg = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = tempDir();
});
afterEach(() => {
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
});

function project(): string {
  const root = tempDir();
  mkdirSync(path.join(root, 'ensembles'), { recursive: true });
  mkdirSync(path.join(root, '.llm-orc', 'ensembles', 'team'), { recursive: true });
  writeFileSync(
    path.join(root, 'ensembles', 'ours.yaml'),
    'name: ours\nagents:\n  - name: a\n    script: echo\n',
  );
  writeFileSync(
    path.join(root, '.llm-orc', 'ensembles', 'team', 'review.yaml'),
    'name: code-review\ndescription: x\nnotes: kept quietly\nagents:\n  - name: a\n    script: echo hi\n    parameters: { k: 1 }\n',
  );
  return root;
}

describe('findEnsembleFile', () => {
  it('finds a path, a name in ensembles_dir, and llm-orc names (nested, by name: or by path)', async () => {
    const root = project();
    const options = { cwd: root, ensemblesDir: path.join(root, 'ensembles') };
    const review = path.join(root, '.llm-orc', 'ensembles', 'team', 'review.yaml');
    expect(await findEnsembleFile('ensembles/ours.yaml', options)).toBe(
      path.join(root, 'ensembles', 'ours.yaml'),
    );
    expect(await findEnsembleFile('ours', options)).toBe(path.join(root, 'ensembles', 'ours.yaml'));
    expect(await findEnsembleFile('code-review', options)).toBe(review);
    expect(await findEnsembleFile('team/code-review', options)).toBe(review);
    expect(await findEnsembleFile('team/review', options)).toBe(review);
  });

  it('names every place it looked when nothing matches', async () => {
    const root = project();
    await expect(
      findEnsembleFile('ghost', { cwd: root, ensemblesDir: path.join(root, 'ensembles') }),
    ).rejects.toThrow(
      new RegExp(
        `"ghost" was not found .*nor in llm-orc's ${path.join(root, '.llm-orc', 'ensembles')}`,
        's',
      ),
    );
    const plain = tempDir();
    await expect(findEnsembleFile('ghost', { cwd: plain })).rejects.toThrow(
      /Pass a path to a YAML file/,
    );
  });

  it('loads an llm-orc file with llm-orc rules (unknown top-level keys ignored, parameters kept)', async () => {
    const root = project();
    const ensemble = await loadEnsemble(
      path.join(root, '.llm-orc', 'ensembles', 'team', 'review.yaml'),
    );
    expect(ensemble.name).toBe('code-review');
    expect(ensemble.agents[0]!.llmorc).toEqual({ parameters: { k: 1 } });
    expect(ensemble.baseDir).toBe(path.join(root, '.llm-orc', 'ensembles', 'team'));
    writeFileSync(
      path.join(root, 'ensembles', 'extra.yaml'),
      'name: e\nnotes: x\nagents:\n  - name: a\n    script: echo\n',
    );
    await expect(loadEnsemble(path.join(root, 'ensembles', 'extra.yaml'))).rejects.toThrow(
      /unknown key "notes"/,
    );
  });
});
