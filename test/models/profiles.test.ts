import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectProfiles as loadProfiles } from '../../src/models/projectConfig.js';
import {
  createProfileRegistry,
  loadProfiles as loadModelProfiles,
} from '../../src/models/profiles.js';
import type { ModelProfile } from '../../src/models/profile.js';

const scripted = (text: string, extra: Partial<ModelProfile> = {}): ModelProfile => ({
  provider: 'scripted',
  model: 'demo',
  script: [text],
  ...extra,
});

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'colloquy-profiles-'));
}

describe('loadProfiles', () => {
  it('lets project profiles override user profiles', async () => {
    const home = await tempDir();
    const project = await tempDir();
    const userFile = path.join(home, 'profiles.yaml');
    await writeFile(
      userFile,
      'profiles:\n  fast: { provider: scripted, model: user, script: [u] }\n  mine: { provider: scripted, model: m, script: [m] }\n',
    );
    await writeFile(
      path.join(project, 'colloquy.yaml'),
      'profiles:\n  fast: { provider: scripted, model: project, script: [p] }\n',
    );
    const registry = await loadProfiles({ cwd: project, userConfigPath: userFile });
    expect(registry.names()).toEqual(['fast', 'mine']);
    expect(registry.get('fast').model).toBe('project');
    expect(registry.source('fast')).toBe(path.join(project, 'colloquy.yaml'));
    expect(registry.source('mine')).toBe(userFile);
  });

  it('lets extra profiles override files', async () => {
    const project = await tempDir();
    const registry = await loadProfiles({
      cwd: project,
      userConfigPath: path.join(project, 'none.yaml'),
      extra: { fast: scripted('x') },
    });
    expect(registry.source('fast')).toBe('code');
  });

  it('reports an invalid user file with its position', async () => {
    const home = await tempDir();
    const userFile = path.join(home, 'profiles.yaml');
    await writeFile(
      userFile,
      'profiles:\n  fast: { provider: scripted, model: m, script: [a], temprature: 1 }\n',
    );
    await expect(loadProfiles({ cwd: home, userConfigPath: userFile })).rejects.toThrow(
      /profiles\.yaml:2:\d+: profiles\.fast\.temprature: unknown key/,
    );
  });
});

describe('loadProfiles({ cwd }) from models (the call docs/models.md shows)', () => {
  it("reads the project's colloquy.yaml in cwd", async () => {
    const project = await tempDir();
    await writeFile(
      path.join(project, 'colloquy.yaml'),
      'profiles:\n  analyst: { provider: scripted, model: a, script: [hi] }\nensembles_dir: flows\n',
    );
    const registry = await loadModelProfiles({
      cwd: project,
      userConfigPath: path.join(project, 'none.yaml'),
    });
    expect(registry.names()).toEqual(['analyst']);
    expect(registry.source('analyst')).toBe(path.join(project, 'colloquy.yaml'));
    expect(registry.baseDir('analyst')).toBe(project);
  });

  it('reports an invalid colloquy.yaml with its position, as the config loader does', async () => {
    const project = await tempDir();
    await writeFile(path.join(project, 'colloquy.yaml'), 'profile:\n  a: {}\n');
    await expect(
      loadModelProfiles({ cwd: project, userConfigPath: path.join(project, 'none.yaml') }),
    ).rejects.toThrow(/colloquy\.yaml:1:1: profile: unknown key/);
  });

  it('a directory without colloquy.yaml has no project profiles', async () => {
    const project = await tempDir();
    const registry = await loadModelProfiles({
      cwd: project,
      userConfigPath: path.join(project, 'none.yaml'),
    });
    expect(registry.names()).toEqual([]);
  });
});

describe('createProfileRegistry', () => {
  it('throws PROFILE_NOT_FOUND listing the known names', () => {
    const registry = createProfileRegistry([
      { source: 'code', baseDir: '.', profiles: { a: scripted('a'), b: scripted('b') } },
    ]);
    expect(() => registry.get('c')).toThrow(
      expect.objectContaining({
        code: 'PROFILE_NOT_FOUND',
        message: expect.stringContaining('Known profiles: a, b'),
      }),
    );
  });

  it('detects fallback cycles at load', () => {
    const profiles = {
      a: scripted('a', { fallback_model_profile: 'b' }),
      b: scripted('b', { fallback_model_profile: 'a' }),
    };
    expect(() => createProfileRegistry([{ source: 'code', baseDir: '.', profiles }])).toThrow(
      /cycle: a -> b -> a/,
    );
  });

  it('rejects a fallback naming an unknown profile', () => {
    const profiles = { a: scripted('a', { fallback_model_profile: 'zz' }) };
    expect(() => createProfileRegistry([{ source: 'code', baseDir: '.', profiles }])).toThrow(
      /fallback_model_profile "zz", which is not a profile/,
    );
  });

  it('rejects a scripted profile without a script', () => {
    const profiles = { a: { provider: 'scripted', model: 'm' } as ModelProfile };
    expect(() => createProfileRegistry([{ source: 'code', baseDir: '.', profiles }])).toThrow(
      /neither script nor script_file/,
    );
  });
});
