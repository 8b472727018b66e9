import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findEnsembleInTree,
  findLlmOrcDir,
  isInLlmOrcProject,
  listEnsembleEntries,
  listYamlFilesRecursive,
  llmOrcDirOf,
  llmOrcEnsembleDirs,
  llmOrcGlobalDir,
} from '../../../src/ensembles/llmorc/project.js';
import { tempDir } from '../helpers.js';

function tree(): string {
  const root = tempDir();
  const ensembles = path.join(root, '.llm-orc', 'ensembles');
  mkdirSync(path.join(ensembles, 'testing', 'deep'), { recursive: true });
  writeFileSync(path.join(ensembles, 'top.yaml'), 'name: top\ndescription: Top one\nagents: []\n');
  writeFileSync(path.join(ensembles, 'testing', 'simple.yml'), 'name: simple-test\nagents: []\n');
  writeFileSync(path.join(ensembles, 'testing', 'deep', 'x.yaml'), 'name: deep-x\n');
  writeFileSync(path.join(ensembles, 'testing', 'broken.yaml'), 'name: [unclosed\n');
  writeFileSync(path.join(ensembles, 'notes.txt'), 'not yaml');
  symlinkSync(
    path.join(ensembles, 'testing', 'deep', 'x.yaml'),
    path.join(ensembles, 'alias.yaml'),
  );
  return root;
}

describe('llm-orc project layout', () => {
  it('finds .llm-orc from a nested working directory, and the project of a file', () => {
    const root = tree();
    const nested = path.join(root, 'src', 'a');
    mkdirSync(nested, { recursive: true });
    expect(findLlmOrcDir(nested)).toBe(path.join(root, '.llm-orc'));
    expect(findLlmOrcDir(tempDir())).toBeUndefined();
    const file = path.join(root, '.llm-orc', 'ensembles', 'testing', 'simple.yml');
    expect(llmOrcDirOf(file)).toBe(path.join(root, '.llm-orc'));
    expect(isInLlmOrcProject(file)).toBe(true);
    expect(isInLlmOrcProject(path.join(root, 'ensembles', 'x.yaml'))).toBe(false);
  });

  it('lists nested ensemble files (symlinked files too) and reads their names', async () => {
    const root = tree();
    const dir = path.join(root, '.llm-orc', 'ensembles');
    const files = await listYamlFilesRecursive(dir);
    expect(files.map((f) => path.relative(dir, f))).toEqual([
      'alias.yaml',
      'testing/broken.yaml',
      'testing/deep/x.yaml',
      'testing/simple.yml',
      'top.yaml',
    ]);
    const entries = await listEnsembleEntries(dir);
    expect(entries.map((e) => [e.displayName, e.description, Boolean(e.error)])).toEqual([
      ['deep-x', undefined, false],
      ['testing/broken', undefined, true],
      ['testing/deep/deep-x', undefined, false],
      ['testing/simple-test', undefined, false],
      ['top', 'Top one', false],
    ]);
    expect(await listYamlFilesRecursive(path.join(root, 'none'))).toEqual([]);
  });

  it('finds an ensemble by name, folder/name or relative path', async () => {
    const root = tree();
    const dir = path.join(root, '.llm-orc', 'ensembles');
    const simple = path.join(dir, 'testing', 'simple.yml');
    expect(await findEnsembleInTree(dir, 'simple-test')).toBe(simple);
    expect(await findEnsembleInTree(dir, 'testing/simple-test')).toBe(simple);
    expect(await findEnsembleInTree(dir, 'testing/simple')).toBe(simple);
    expect(await findEnsembleInTree(dir, 'testing/deep/deep-x')).toBe(
      path.join(dir, 'testing', 'deep', 'x.yaml'),
    );
    expect(await findEnsembleInTree(dir, 'nothing')).toBeUndefined();
  });

  it('global config follows XDG_CONFIG_HOME; ensemble dirs are project, library, global', () => {
    const root = tree();
    const xdg = tempDir();
    mkdirSync(path.join(xdg, 'llm-orc', 'ensembles'), { recursive: true });
    mkdirSync(path.join(root, 'llm-orchestra-library', 'ensembles'), { recursive: true });
    const env = { XDG_CONFIG_HOME: xdg };
    expect(llmOrcGlobalDir(env)).toBe(path.join(xdg, 'llm-orc'));
    expect(llmOrcGlobalDir({ HOME: '/h' })).toMatch(/\.config\/llm-orc$/);
    expect(llmOrcEnsembleDirs(root, env)).toEqual([
      path.join(root, '.llm-orc', 'ensembles'),
      path.join(root, 'llm-orchestra-library', 'ensembles'),
      path.join(xdg, 'llm-orc', 'ensembles'),
    ]);
  });
});
