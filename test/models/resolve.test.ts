import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { checkProfileKeys } from '../../src/models/apiKeys.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import type { ProfileMap } from '../../src/models/profiles.js';
import {
  createModel,
  ProfileModelProvider,
  profileModelSettings,
} from '../../src/models/resolve.js';

const logger = createLogger({ level: 'silent' });
const registryOf = (profiles: ProfileMap, baseDir = process.cwd()) =>
  createProfileRegistry([{ source: 'test', baseDir, profiles }]);
const run = async (model: ReturnType<typeof createModel>, input = 'hi') =>
  (
    await new Runner({ tracingDisabled: true }).run(
      new Agent({ name: 'A', instructions: 'x', model }),
      input,
    )
  ).finalOutput;

describe('createModel', () => {
  it('plays an inline script and repeats its last step', async () => {
    const model = createModel(
      'demo',
      registryOf({ demo: { provider: 'scripted', model: 'd', script: ['one', 'two'] } }),
      { logger, record: false },
    );
    expect([await run(model), await run(model), await run(model)]).toEqual(['one', 'two', 'two']);
  });

  it('reads script_file relative to the config directory', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-script-'));
    await writeFile(path.join(dir, 'steps.yaml'), '- from a file\n');
    const model = createModel(
      'demo',
      registryOf({ demo: { provider: 'scripted', model: 'd', script_file: 'steps.yaml' } }, dir),
      { logger, record: false },
    );
    expect(await run(model)).toBe('from a file');
  });

  it('accepts a profile object', async () => {
    const model = createModel(
      { provider: 'scripted', model: 'd', script: ['inline'] },
      registryOf({}),
      { logger, record: false },
    );
    expect(await run(model)).toBe('inline');
  });

  it('raises MISSING_API_KEY naming the variable before any call', () => {
    const registry = registryOf({ fast: { provider: 'openai', model: 'gpt' } });
    expect(() => createModel('fast', registry, { env: {}, logger })).toThrow(
      expect.objectContaining({
        code: 'MISSING_API_KEY',
        message: expect.stringContaining('OPENAI_API_KEY is not set'),
      }),
    );
  });

  it('records when COLLOQUY_RECORD is set', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'colloquy-rec-')), 'c.json');
    const model = createModel(
      'demo',
      registryOf({ demo: { provider: 'scripted', model: 'd', script: ['taped'] } }),
      { env: { COLLOQUY_RECORD: file }, logger },
    );
    await run(model);
    expect(JSON.parse(await readFile(file, 'utf8')).interactions).toHaveLength(1);
  });

  it('falls back in line, logging each attempt, when the agent has no retry settings', async () => {
    const lines: string[] = [];
    const capture = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(line) },
    });
    const registry = registryOf({
      broken: {
        provider: 'openai-compatible',
        model: 'm',
        base_url: 'http://127.0.0.1:9/v1',
        fallback_model_profile: 'steady',
        max_retries: 0,
      },
      steady: { provider: 'scripted', model: 's', script: ['steady answer'] },
    });
    expect(
      await run(createModel('broken', registry, { env: {}, logger: capture, record: false })),
    ).toBe('steady answer');
    const logged = lines.map(
      (line) => JSON.parse(line) as { level: number; profile: string; next?: string },
    );
    expect(logged.map((entry) => [entry.level, entry.profile, entry.next])).toEqual([
      [40, 'broken', 'fallback'],
      [30, 'steady', undefined],
    ]);
  });
});

describe('checkProfileKeys', () => {
  it('checks the fallbacks too', () => {
    const registry = registryOf({
      local: { provider: 'ollama', model: 'llama', fallback_model_profile: 'cloud' },
      cloud: { provider: 'anthropic', model: 'claude', api_key_env: 'MY_CLAUDE_KEY' },
    });
    expect(() => checkProfileKeys('local', registry, {})).toThrow(
      /Profile "cloud" uses provider anthropic but MY_CLAUDE_KEY is not set/,
    );
    expect(() => checkProfileKeys('local', registry, { MY_CLAUDE_KEY: 'k' })).not.toThrow();
  });
});

describe('profileModelSettings', () => {
  it('maps temperature, max_tokens and timeout, and budgets retries over the chain', () => {
    const registry = registryOf({
      a: {
        provider: 'scripted',
        model: 'a',
        script: ['a'],
        temperature: 0.2,
        max_tokens: 50,
        timeout_seconds: 3,
        max_retries: 2,
        fallback_model_profile: 'b',
      },
      b: { provider: 'scripted', model: 'b', script: ['b'], max_retries: 1 },
    });
    const settings = profileModelSettings('a', registry);
    expect(settings).toMatchObject({
      temperature: 0.2,
      maxTokens: 50,
      timeoutMs: 3_000,
      retry: { maxRetries: 4 },
    });
    expect(typeof settings.retry?.policy).toBe('function');
  });
});

describe('ProfileModelProvider', () => {
  it('resolves agent model names as profiles', async () => {
    const provider = new ProfileModelProvider(
      registryOf({ fast: { provider: 'scripted', model: 'f', script: ['by name'] } }),
      { logger, record: false },
    );
    const agent = new Agent({ name: 'A', instructions: 'x', model: 'fast' });
    const result = await new Runner({ tracingDisabled: true, modelProvider: provider }).run(
      agent,
      'hi',
    );
    expect(result.finalOutput).toBe('by name');
  });
});
