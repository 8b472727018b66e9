import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProfileRegistry } from '../../../src/models/profiles.js';
import {
  loadLlmOrcProfileSources,
  toColloquyProfile,
} from '../../../src/ensembles/llmorc/profiles.js';
import { tempDir } from '../helpers.js';

function setup(): { llmOrcDir: string; xdg: string } {
  const root = tempDir();
  const llmOrcDir = path.join(root, '.llm-orc');
  mkdirSync(path.join(llmOrcDir, 'profiles'), { recursive: true });
  writeFileSync(
    path.join(llmOrcDir, 'config.yaml'),
    `project: { name: demo }
model_profiles:
  fast:
    model: mock-fast
    provider: ollama
    cost_per_token: 0.0
    system_prompt: Be quick.
    timeout_seconds: 30
  quality:
    model: claude-sonnet-4
    provider: anthropic-api
    fallback_model_profile: fast
  broken-a:
    model: x
    provider: nonexistent-provider
    fallback_model_profile: broken-b
  broken-b:
    model: y
    provider: nonexistent-provider
    fallback_model_profile: broken-a
`,
  );
  writeFileSync(
    path.join(llmOrcDir, 'profiles', 'gemma.yaml'),
    'name: gemma\nmodel: gemma3:1b\nprovider: ollama\noptions: { num_ctx: 8192 }\n',
  );
  writeFileSync(
    path.join(llmOrcDir, 'profiles', 'gemma.local.yaml'),
    'name: gemma\nmodel: gemma3:12b\nprovider: ollama\n',
  );
  writeFileSync(
    path.join(llmOrcDir, 'profiles', 'no-name.yaml'),
    'model: ignored\nprovider: ollama\n',
  );
  const xdg = tempDir();
  mkdirSync(path.join(xdg, 'llm-orc'), { recursive: true });
  writeFileSync(
    path.join(xdg, 'llm-orc', 'config.yaml'),
    'model_profiles:\n  fast: { model: global-fast, provider: ollama }\n  global-only: { model: g, provider: google-gemini }\n',
  );
  return { llmOrcDir, xdg };
}

describe('llm-orc profiles', () => {
  it('merges global config, project config and profiles/ in llm-orc order (.local.yaml last)', async () => {
    const { llmOrcDir, xdg } = setup();
    const sources = await loadLlmOrcProfileSources({ llmOrcDir, env: { XDG_CONFIG_HOME: xdg } });
    const registry = createProfileRegistry(sources);
    expect(registry.names()).toEqual([
      'broken-a',
      'broken-b',
      'fast',
      'gemma',
      'global-only',
      'quality',
    ]);
    expect(registry.get('fast')).toEqual({
      model: 'mock-fast',
      provider: 'ollama',
      cost_per_token: 0,
      system_prompt: 'Be quick.',
      timeout_seconds: 30,
    });
    expect(registry.get('gemma')).toEqual({ model: 'gemma3:12b', provider: 'ollama' });
    expect(registry.source('gemma')).toBe(path.join(llmOrcDir, 'profiles', 'gemma.local.yaml'));
    expect(registry.get('global-only').provider).toBe('google-gemini');
    expect(registry.get('quality').fallback_model_profile).toBe('fast');
  });

  it('a broken profile (unknown provider, fallback cycle) fails only when used', async () => {
    const { llmOrcDir } = setup();
    const registry = createProfileRegistry(
      await loadLlmOrcProfileSources({ llmOrcDir, skipGlobal: true }),
    );
    expect(registry.has('broken-a')).toBe(true);
    expect(() => registry.get('broken-a')).toThrow(/Profile "broken-a" .* is invalid: provider: /);
    expect(registry.source('broken-b')).toBe(path.join(llmOrcDir, 'config.yaml'));
  });

  it('a fallback cycle among valid lenient profiles is reported on use', () => {
    const registry = createProfileRegistry([
      {
        source: 'x',
        baseDir: '.',
        lenient: true,
        profiles: {
          a: { model: 'm', provider: 'ollama', fallback_model_profile: 'b' },
          b: { model: 'm', provider: 'ollama', fallback_model_profile: 'a' },
          ok: { model: 'm', provider: 'ollama' },
        },
      },
    ]);
    expect(registry.get('ok').model).toBe('m');
    expect(() => registry.get('a')).toThrow(/Fallback profiles form a cycle: a -> b -> a/);
  });

  it('Colloquy sources stay strict', () => {
    expect(() =>
      createProfileRegistry([
        {
          source: 'colloquy.yaml',
          baseDir: '.',
          profiles: { a: { model: 'm', provider: 'nope' as 'ollama' } },
        },
      ]),
    ).toThrow(/Profile "a" \(colloquy.yaml\) is invalid/);
  });

  it('toColloquyProfile drops keys Colloquy does not know', () => {
    expect(toColloquyProfile({ name: 'x', model: 'm', provider: 'ollama', colour: 1 })).toEqual({
      model: 'm',
      provider: 'ollama',
    });
    expect(toColloquyProfile('nope')).toEqual({});
  });

  it('missing files give no sources; invalid YAML names the file', async () => {
    expect(await loadLlmOrcProfileSources({ llmOrcDir: tempDir(), skipGlobal: true })).toEqual([]);
    const dir = tempDir();
    writeFileSync(path.join(dir, 'config.yaml'), 'model_profiles: [oops\n');
    await expect(loadLlmOrcProfileSources({ llmOrcDir: dir, skipGlobal: true })).rejects.toThrow(
      /config\.yaml: invalid YAML/,
    );
  });
});
