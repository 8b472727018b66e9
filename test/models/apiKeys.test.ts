import { describe, expect, it } from 'vitest';
import {
  apiKeyEnvFor,
  checkProfileKeys,
  fallbackChain,
  resolveApiKey,
} from '../../src/models/apiKeys.js';
import type { ModelProfile } from '../../src/models/profile.js';
import { createProfileRegistry } from '../../src/models/profiles.js';

const profile = (fields: Partial<ModelProfile> & Pick<ModelProfile, 'provider'>): ModelProfile => ({
  model: 'm',
  ...fields,
});

describe('apiKeyEnvFor', () => {
  it("names each provider's default variable, and api_key_env wins", () => {
    expect(apiKeyEnvFor(profile({ provider: 'openai' }))).toBe('OPENAI_API_KEY');
    expect(apiKeyEnvFor(profile({ provider: 'anthropic' }))).toBe('ANTHROPIC_API_KEY');
    expect(apiKeyEnvFor(profile({ provider: 'anthropic-api' }))).toBe('ANTHROPIC_API_KEY');
    expect(apiKeyEnvFor(profile({ provider: 'google-gemini' }))).toBe(
      'GOOGLE_GENERATIVE_AI_API_KEY',
    );
    expect(apiKeyEnvFor(profile({ provider: 'openai', api_key_env: 'MY_KEY' }))).toBe('MY_KEY');
    expect(apiKeyEnvFor(profile({ provider: 'openai-compatible', api_key_env: 'GW_KEY' }))).toBe(
      'GW_KEY',
    );
  });

  it('needs no key for local and offline providers, even with api_key_env', () => {
    expect(apiKeyEnvFor(profile({ provider: 'ollama' }))).toBeUndefined();
    expect(apiKeyEnvFor(profile({ provider: 'openai-compatible' }))).toBeUndefined();
    expect(apiKeyEnvFor(profile({ provider: 'scripted', api_key_env: 'X' }))).toBeUndefined();
    expect(apiKeyEnvFor(profile({ provider: 'replay', api_key_env: 'X' }))).toBeUndefined();
    expect(apiKeyEnvFor(profile({ provider: 'mock' }))).toBeUndefined();
    expect(apiKeyEnvFor(profile({ provider: 'anthropic', model: 'mock-claude' }))).toBeUndefined();
  });
});

describe('resolveApiKey', () => {
  it('returns the value of the variable', () => {
    expect(resolveApiKey('fast', profile({ provider: 'openai' }), { OPENAI_API_KEY: 'k-1' })).toBe(
      'k-1',
    );
    expect(resolveApiKey('local', profile({ provider: 'ollama' }), {})).toBeUndefined();
  });

  it('throws MISSING_API_KEY naming the profile, provider, variable and fix', () => {
    const run = () => resolveApiKey('fast', profile({ provider: 'anthropic' }), {});
    expect(run).toThrow(
      expect.objectContaining({
        code: 'MISSING_API_KEY',
        message:
          'Profile "fast" uses provider anthropic but ANTHROPIC_API_KEY is not set. Export it, or set api_key_env in the profile.',
      }),
    );
  });

  it('treats a blank value as missing, and points at api_key_env when it was set', () => {
    const custom = profile({ provider: 'openai', api_key_env: 'TEAM_KEY' });
    expect(() => resolveApiKey('team', custom, { TEAM_KEY: '   ' })).toThrow(
      /TEAM_KEY is not set\. Export TEAM_KEY, or change api_key_env in the profile\./,
    );
  });
});

describe('fallbackChain and checkProfileKeys', () => {
  const registry = createProfileRegistry([
    {
      source: 'test',
      baseDir: '/',
      profiles: {
        smart: { provider: 'anthropic', model: 'c', fallback_model_profile: 'fast' },
        fast: { provider: 'openai', model: 'g', fallback_model_profile: 'local' },
        local: { provider: 'ollama', model: 'l' },
      },
    },
  ]);

  it('lists a profile and its fallbacks in order', () => {
    expect(fallbackChain('smart', registry)).toEqual(['smart', 'fast', 'local']);
    expect(fallbackChain('local', registry)).toEqual(['local']);
  });

  it('checks the keys of every fallback, not only the first profile', () => {
    expect(() => checkProfileKeys('smart', registry, { ANTHROPIC_API_KEY: 'a' })).toThrow(
      /Profile "fast" uses provider openai but OPENAI_API_KEY/,
    );
    expect(() =>
      checkProfileKeys(['smart', 'local'], registry, {
        ANTHROPIC_API_KEY: 'a',
        OPENAI_API_KEY: 'o',
      }),
    ).not.toThrow();
  });

  it('throws PROFILE_NOT_FOUND for an unknown name', () => {
    expect(() => checkProfileKeys(['local', 'nope'], registry, {})).toThrow(
      expect.objectContaining({ code: 'PROFILE_NOT_FOUND' }),
    );
  });
});
