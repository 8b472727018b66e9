import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { createProfileRegistry, loadProfiles, validateProfile } from '../../src/models/profiles.js';
import type { ProfileMap } from '../../src/models/profiles.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-profiles-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const source = (profiles: Record<string, unknown>, lenient = false) => ({
  source: 'team.yaml',
  baseDir: dir,
  profiles: profiles as ProfileMap,
  lenient,
});

describe('validateProfile', () => {
  it('asks scripted profiles for a script and replay profiles for a cassette', () => {
    expect(() => validateProfile('s', { provider: 'scripted', model: 'm' }, 'f.yaml')).toThrow(
      'Profile "s" (f.yaml) uses provider scripted but has neither script nor script_file. Add one of them.',
    );
    expect(() => validateProfile('r', { provider: 'replay', model: 'm' }, 'f.yaml')).toThrow(
      /Profile "r" \(f\.yaml\) uses provider replay but has no cassette/,
    );
    expect(() =>
      validateProfile('s', { provider: 'scripted', model: 'm', script_file: 's.yaml' }, 'f'),
    ).not.toThrow();
  });
});

describe('createProfileRegistry errors', () => {
  it('names an invalid profile, its source and every bad field', () => {
    expect(() =>
      createProfileRegistry([source({ bad: { provider: 'nope', model: '', temperature: 5 } })]),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          /^Profile "bad" \(team\.yaml\) is invalid: .*Fix the profile/,
        ),
      }),
    );
    const message = (() => {
      try {
        createProfileRegistry([source({ bad: { provider: 'nope', model: '', temperature: 5 } })]);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    for (const field of ['provider: ', 'model: ', 'temperature: '])
      expect(message).toContain(field);
    expect(message.split('; ')).toHaveLength(3);
  });

  it('lists the known profiles for an unknown fallback', () => {
    expect(() =>
      createProfileRegistry([
        source({
          a: { provider: 'openai', model: 'm', fallback_model_profile: 'zzz' },
          b: { provider: 'ollama', model: 'm' },
        }),
      ]),
    ).toThrow(
      'Profile "a" (team.yaml) has fallback_model_profile "zzz", which is not a profile. Known profiles: a, b.',
    );
  });

  it('shows the whole cycle of fallbacks', () => {
    expect(() =>
      createProfileRegistry([
        source({
          a: { provider: 'ollama', model: 'm', fallback_model_profile: 'b' },
          b: { provider: 'ollama', model: 'm', fallback_model_profile: 'c' },
          c: { provider: 'ollama', model: 'm', fallback_model_profile: 'a' },
        }),
      ]),
    ).toThrow(
      'Fallback profiles form a cycle: a -> b -> c -> a. Remove one fallback_model_profile.',
    );
  });

  it('a lenient source keeps loading and raises the problem on use', () => {
    const registry = createProfileRegistry([
      source(
        {
          good: { provider: 'ollama', model: 'm' },
          broken: { provider: 'nope', model: 'm' },
          leaning: { provider: 'ollama', model: 'm', fallback_model_profile: 'broken' },
        },
        true,
      ),
    ]);
    expect(registry.get('good').provider).toBe('ollama');
    expect(registry.has('broken')).toBe(true);
    expect(() => registry.get('broken')).toThrow(/Profile "broken" \(team\.yaml\) is invalid/);
    expect(() => registry.get('leaning')).toThrow(
      /fallback_model_profile "broken", which is a broken profile/,
    );
    expect(() => registry.baseDir('broken')).toThrow(ConfigError);
    expect(registry.source('broken')).toBe('team.yaml');
  });

  it('a later source overrides an earlier one, fixing a broken lenient profile', () => {
    const registry = createProfileRegistry([
      source({ p: { provider: 'nope', model: 'm' } }, true),
      {
        source: 'code',
        baseDir: '/elsewhere',
        profiles: { p: { provider: 'ollama', model: 'x' } },
      },
    ]);
    expect(registry.get('p').model).toBe('x');
    expect(registry.source('p')).toBe('code');
    expect(registry.baseDir('p')).toBe('/elsewhere');
  });

  it('says (none) when nothing is defined', () => {
    expect(() => createProfileRegistry([]).get('fast')).toThrow(
      expect.objectContaining({
        code: 'PROFILE_NOT_FOUND',
        message: expect.stringContaining('Known profiles: (none).'),
      }),
    );
    expect(() => createProfileRegistry([]).source('fast')).toThrow(/not defined/);
  });
});

describe('loadProfiles errors', () => {
  it('reports an unknown key in the user file with its position', async () => {
    const file = path.join(dir, 'profiles.yaml');
    await writeFile(file, 'profiles:\n  fast:\n    provider: openai\n    model: m\nextra: 1\n');
    await expect(loadProfiles({ userConfigPath: file })).rejects.toThrow(
      `${file}:5:1: extra: unknown key "extra"`,
    );
  });

  it('an unreadable user file is a ConfigError naming it', async () => {
    const file = path.join(dir, 'as-folder');
    await import('node:fs/promises').then((fs) => fs.mkdir(file));
    await expect(loadProfiles({ userConfigPath: file })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(`Could not read ${file}`),
    });
  });

  it('names the project file as the source of project profiles', async () => {
    const registry = await loadProfiles({
      userConfigPath: path.join(dir, 'missing.yaml'),
      project: {
        baseDir: dir,
        configPath: path.join(dir, 'colloquy.yaml'),
        profiles: { p: { provider: 'ollama', model: 'm' } },
      },
      extra: { q: { provider: 'ollama', model: 'm' } },
    });
    expect(registry.source('p')).toBe(path.join(dir, 'colloquy.yaml'));
    expect(registry.source('q')).toBe('code');
    expect(registry.baseDir('q')).toBe(dir);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a user file without read permission is a ConfigError (skipped as root, who reads any file)',
    async () => {
      const file = path.join(dir, 'locked.yaml');
      await writeFile(file, 'profiles: {}\n');
      await chmod(file, 0);
      await expect(loadProfiles({ userConfigPath: file })).rejects.toThrow(/permissions/);
    },
  );
});
