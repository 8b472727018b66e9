import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadProjectConfig,
  loadProjectProfiles,
  parseProjectConfig,
} from '../../src/models/projectConfig.js';

async function projectWith(text: string | undefined): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-config-'));
  if (text !== undefined) await writeFile(path.join(dir, 'colloquy.yaml'), text);
  return dir;
}

describe('loadProjectConfig', () => {
  it('returns the defaults when there is no colloquy.yaml', async () => {
    const config = await loadProjectConfig({ cwd: await projectWith(undefined) });
    expect(config.ensembles_dir).toBe('ensembles');
    expect(config.configPath).toBeUndefined();
  });

  it('reads profiles and paths', async () => {
    const dir = await projectWith(
      'profiles:\n  demo:\n    provider: scripted\n    model: demo\n    script: [hi]\nstore: memory\n',
    );
    const config = await loadProjectConfig({ cwd: dir });
    expect(config.profiles?.demo?.provider).toBe('scripted');
    expect(config.store).toBe('memory');
    expect(config.configPath).toBe(path.join(dir, 'colloquy.yaml'));
  });

  it('names the file, line and column of an unknown key', async () => {
    const dir = await projectWith('store: memory\nstoer: oops\n');
    await expect(loadProjectConfig({ cwd: dir })).rejects.toThrow(
      /colloquy\.yaml:2:1: stoer: unknown key "stoer"/,
    );
  });

  it('names the position and the expected values of a bad provider', async () => {
    const dir = await projectWith('profiles:\n  fast:\n    model: m\n    provider: opnai\n');
    const error = (await loadProjectConfig({ cwd: dir }).catch(
      (caught: unknown) => caught,
    )) as Error & { code: string };
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/colloquy\.yaml:4:15: profiles\.fast\.provider: .*"openai"/);
  });

  it('reports a YAML syntax error with its position', async () => {
    const dir = await projectWith('profiles: [\n');
    await expect(loadProjectConfig({ cwd: dir })).rejects.toThrow(
      /colloquy\.yaml:\d+:\d+: invalid YAML/,
    );
  });
});

describe('parseProjectConfig', () => {
  it('applies the defaults and keeps the known keys', () => {
    expect(parseProjectConfig('store: memory\nagencies: agencies.ts\n', 'c.yaml')).toEqual({
      store: 'memory',
      agencies: 'agencies.ts',
      ensembles_dir: 'ensembles',
    });
    expect(parseProjectConfig('', 'c.yaml')).toEqual({ ensembles_dir: 'ensembles' });
  });

  it('rejects empty strings and bad profiles with positions', () => {
    expect(() => parseProjectConfig('store: ""\n', 'c.yaml')).toThrow(/c\.yaml:1/);
    const error = (() => {
      try {
        parseProjectConfig('profiles:\n  p:\n    provider: nobody\n    model: m\n', 'c.yaml');
      } catch (e) {
        return e as Error & { code?: string };
      }
      return undefined;
    })();
    expect(error?.code).toBe('CONFIG_INVALID');
    expect(error?.message).toContain('c.yaml:3');
    expect(error?.message).toContain('provider');
  });

  it('rejects YAML that does not parse', () => {
    expect(() => parseProjectConfig('store: [unclosed\n', 'c.yaml')).toThrow(/c\.yaml/);
  });
});

describe('loadProjectConfig errors', () => {
  it('explains an unreadable colloquy.yaml (a directory in its place)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-config-'));
    await mkdir(path.join(dir, 'colloquy.yaml'));
    await expect(loadProjectConfig({ cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('Could not read'),
    });
  });
});

describe('loadProjectProfiles', () => {
  it("merges the project's profiles over the user's, from a given config or from cwd", async () => {
    const dir = await projectWith(
      'profiles:\n  fast:\n    provider: scripted\n    model: local\n    script: [hi]\n',
    );
    const userFile = path.join(dir, 'user-profiles.yaml');
    await writeFile(
      userFile,
      'profiles:\n  fast:\n    provider: openai\n    model: gpt\n  other:\n    provider: openai\n    model: gpt\n',
    );
    const registry = await loadProjectProfiles({ cwd: dir, userConfigPath: userFile });
    expect(registry.get('fast').provider).toBe('scripted');
    expect(registry.get('other').provider).toBe('openai');
    const config = await loadProjectConfig({ cwd: dir });
    const again = await loadProjectProfiles({ projectConfig: config, userConfigPath: userFile });
    expect(again.names().sort()).toEqual(registry.names().sort());
    expect(() => registry.get('missing')).toThrow(/missing/);
  });
});
