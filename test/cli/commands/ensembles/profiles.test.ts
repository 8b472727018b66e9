import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  llmOrcDirFor,
  prepareEnsemble,
  profilesForEnsemble,
  projectDirFor,
} from '../../../../src/cli/commands/ensembles/profiles.js';
import { llmOrcProject, tempDir } from './helpers.js';

describe('profiles and preparation of an ensemble for the CLI', () => {
  it('an llm-orc ensemble sees llm-orc profiles and colloquy.yaml profiles (project ones win)', async () => {
    const root = llmOrcProject();
    writeFileSync(
      path.join(root, 'colloquy.yaml'),
      'profiles:\n  analyst: { provider: scripted, model: s, script: ["hi"] }\n  extra: { provider: scripted, model: e, script: ["x"] }\n',
    );
    const file = path.join(root, '.llm-orc', 'ensembles', 'testing', 'pipeline.yaml');
    const registry = await profilesForEnsemble(file, root);
    expect(registry.names()).toEqual(expect.arrayContaining(['analyst', 'extra']));
    expect(registry.get('analyst').provider).toBe('scripted');
    expect(llmOrcDirFor(file, tempDir())).toBe(path.join(root, '.llm-orc'));
    expect(projectDirFor(file)).toBe(root);
    expect(projectDirFor(path.join(tempDir(), 'x.yaml'), tempDir())).toBeUndefined();
  });

  it('prepareEnsemble adds derived profiles for inline models and overrides', async () => {
    const root = llmOrcProject();
    const file = path.join(root, '.llm-orc', 'ensembles', 'inline.yaml');
    writeFileSync(
      file,
      'name: inline\ndescription: x\nagents:\n  - name: a\n    model: mock-a\n    provider: ollama\n  - name: b\n    model_profile: analyst\n    max_tokens: 50\n',
    );
    const { ensemble, profiles, projectDir } = await prepareEnsemble(file, root);
    expect(projectDir).toBe(root);
    expect(ensemble.agents.map((a) => a.model_profile)).toEqual(['ollama/mock-a@a', 'analyst@b']);
    expect(profiles?.get('analyst@b')).toMatchObject({ model: 'mock-analyst', max_tokens: 50 });
    expect(profiles?.get('ollama/mock-a@a')).toEqual({ model: 'mock-a', provider: 'ollama' });
  });

  it('prepareEnsemble refuses unknown profiles unless asked not to check them', async () => {
    const root = llmOrcProject();
    const file = path.join(root, '.llm-orc', 'ensembles', 'unknown.yaml');
    writeFileSync(
      file,
      'name: u\ndescription: x\nagents:\n  - name: a\n    model_profile: ghost\n',
    );
    await expect(prepareEnsemble(file, root)).rejects.toThrow(/profile "ghost" does not exist/);
    const { ensemble } = await prepareEnsemble(file, root, { checkProfiles: false });
    expect(ensemble.agents[0]!.model_profile).toBe('ghost');
  });

  it('a Colloquy ensemble outside .llm-orc keeps Colloquy rules', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'ensembles'));
    const file = path.join(dir, 'ensembles', 'x.yaml');
    writeFileSync(file, 'name: x\nagents:\n  - name: a\n    script: ./missing.js\n');
    await expect(prepareEnsemble(file, dir)).rejects.toThrow(
      /agent "a": script file does not exist; looked at .*missing\.js/,
    );
  });
});
