import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadProjectConfig,
  parseProjectConfig,
  PROJECT_CONFIG_FILE,
} from '../../src/models/projectConfig.js';
import { ConfigError } from '../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-config-errors-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadError(text: string): Promise<ConfigError> {
  await writeFile(path.join(dir, PROJECT_CONFIG_FILE), text);
  const error = await loadProjectConfig({ cwd: dir }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadProjectConfig error messages', () => {
  it('name the absolute file, the line and column, and the field path', async () => {
    const error = await loadError(
      'store: sqlite:x.db\nprofiles:\n  fast:\n    provider: openai\n    model: gpt\n    temperature: 9\n',
    );
    const file = path.join(dir, PROJECT_CONFIG_FILE);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`${file}:6:18: profiles.fast.temperature: `);
  });

  it('report a missing required profile field at the profile', async () => {
    const error = await loadError('profiles:\n  fast:\n    provider: openai\n');
    expect(error.message).toMatch(/colloquy\.yaml:3:5: profiles\.fast\.model: /);
  });

  it('report every bad field, one line each', async () => {
    const error = await loadError(
      'ensembles_dir: ""\nagencies: 3\nprofiles:\n  a:\n    provider: nope\n    model: m\n    max_retries: 11\n',
    );
    const lines = error.message.split('\n').slice(1);
    expect(lines.map((line) => line.split(': ')[1])).toEqual(
      expect.arrayContaining([
        'ensembles_dir',
        'agencies',
        'profiles.a.provider',
        'profiles.a.max_retries',
      ]),
    );
    expect(lines).toHaveLength(4);
  });

  it('report an unknown key of a profile at the key, with the fix', async () => {
    const error = await loadError(
      'profiles:\n  fast:\n    provider: openai\n    model: m\n    temprature: 1\n',
    );
    expect(error.message).toContain(
      'colloquy.yaml:5:5: profiles.fast.temprature: unknown key "temprature" (remove it or check its spelling)',
    );
  });

  it('report a bad base_url and a bad cost shape', async () => {
    const error = await loadError(
      'profiles:\n  p:\n    provider: openai-compatible\n    model: m\n    base_url: not a url\n    cost_per_million: { input: 1 }\n',
    );
    expect(error.message).toMatch(/:5:15: profiles\.p\.base_url: /);
    expect(error.message).toMatch(/:6:\d+: profiles\.p\.cost_per_million\.output: /);
  });

  it('refuse a document that is not a mapping', async () => {
    const error = await loadError('- a\n- b\n');
    expect(error.message).toMatch(/colloquy\.yaml:1:1: \(top level\): /);
  });

  it('refuse a file over the YAML limits with the file named', async () => {
    const many = Array.from({ length: 2_001 }, (_, i) => `  p${i}: { provider: openai }`);
    const error = await loadError(`profiles:\n${many.join('\n')}\n`);
    expect(error.message).toContain(`${path.join(dir, PROJECT_CONFIG_FILE)}: a mapping has more`);
  });

  it.skipIf(process.getuid?.() === 0)(
    'explain an unreadable file and keep the cause (skipped as root, who reads any file)',
    async () => {
      const file = path.join(dir, PROJECT_CONFIG_FILE);
      await writeFile(file, 'store: x\n');
      await chmod(file, 0o000);
      const error = await loadProjectConfig({ cwd: dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(`Could not read ${file}`);
      expect((error as ConfigError).message).toContain("Check the file's permissions.");
      expect(((error as ConfigError).cause as NodeJS.ErrnoException).code).toBe('EACCES');
    },
  );
});

describe('loadProjectConfig results', () => {
  it('resolves a relative cwd and records where the config came from', async () => {
    await writeFile(path.join(dir, PROJECT_CONFIG_FILE), 'agencies: teams\n');
    const relative = path.relative(process.cwd(), dir);
    const config = await loadProjectConfig({ cwd: relative });
    expect(config.baseDir).toBe(dir);
    expect(config.configPath).toBe(path.join(dir, PROJECT_CONFIG_FILE));
    expect(config.agencies).toBe('teams');
    expect(config.ensembles_dir).toBe('ensembles');
  });

  it('treats an empty file like the defaults, but with its path', async () => {
    await writeFile(path.join(dir, PROJECT_CONFIG_FILE), '# nothing yet\n');
    const config = await loadProjectConfig({ cwd: dir });
    expect(config.configPath).toBe(path.join(dir, PROJECT_CONFIG_FILE));
    expect(config.profiles).toBeUndefined();
    expect(config.store).toBeUndefined();
  });
});

describe('parseProjectConfig', () => {
  it('accepts every provider with its own options', () => {
    const config = parseProjectConfig(
      [
        'profiles:',
        '  s: { provider: scripted, model: m, script: [hi, { tool: add, args: { a: 1 } }] }',
        '  r: { provider: replay, model: m, cassette: c.json }',
        '  o: { provider: openai, model: m, api: chat, retry_backoff: { jitter: false } }',
      ].join('\n'),
      'c.yaml',
    );
    expect(config.profiles?.s?.script).toEqual(['hi', { tool: 'add', args: { a: 1 } }]);
    expect(config.profiles?.o?.retry_backoff).toEqual({ jitter: false });
    expect(config.profiles?.r?.cassette).toBe('c.json');
  });

  it('rejects an unknown retry_backoff field with its position', () => {
    expect(() =>
      parseProjectConfig(
        'profiles:\n  o:\n    provider: openai\n    model: m\n    retry_backoff:\n      jitter: true\n      delay: 3\n',
        'c.yaml',
      ),
    ).toThrow(/c\.yaml:7:7: profiles\.o\.retry_backoff\.delay: unknown key "delay"/);
  });
});
