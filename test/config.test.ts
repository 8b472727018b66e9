import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../src/config.js';

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
