/**
 * API keys: which environment variable a profile reads, and the check that fails before any run
 * starts when one is missing.
 * @module
 */
import { ColloquyError } from '../errors.js';
import type { ModelProfile } from './profile.js';
import type { ProfileRegistry } from './profiles.js';

const DEFAULT_KEY_ENV: Partial<Record<ModelProfile['provider'], string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'anthropic-api': 'ANTHROPIC_API_KEY',
  'google-gemini': 'GOOGLE_GENERATIVE_AI_API_KEY',
};

/**
 * The environment variable holding the profile's API key: `api_key_env` when set, else the
 * provider's default (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`); undefined when no key is needed
 * (`ollama`, `openai-compatible` without `api_key_env`, `scripted`, `replay`).
 */
export function apiKeyEnvFor(profile: ModelProfile): string | undefined {
  if (profile.provider === 'scripted' || profile.provider === 'replay') return undefined;
  if (profile.provider === 'mock' || profile.model.startsWith('mock')) return undefined;
  return profile.api_key_env ?? DEFAULT_KEY_ENV[profile.provider];
}

/**
 * Returns the profile's API key from `env`, or undefined when the profile needs none. Throws
 * `MISSING_API_KEY` naming the variable when it is needed but unset or empty.
 */
export function resolveApiKey(
  name: string,
  profile: ModelProfile,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const variable = apiKeyEnvFor(profile);
  if (variable === undefined) return undefined;
  const value = env[variable];
  if (value === undefined || value.trim() === '') {
    const hint = profile.api_key_env
      ? `Export ${variable}, or change api_key_env in the profile.`
      : 'Export it, or set api_key_env in the profile.';
    throw new ColloquyError(
      'MISSING_API_KEY',
      `Profile "${name}" uses provider ${profile.provider} but ${variable} is not set. ${hint}`,
    );
  }
  return value;
}

/** The profile names a profile depends on: itself, then its fallbacks in order. */
export function fallbackChain(name: string, registry: ProfileRegistry): string[] {
  const chain: string[] = [];
  for (
    let next: string | undefined = name;
    next !== undefined;
    next = registry.get(next).fallback_model_profile
  ) {
    if (chain.includes(next)) break; // cycles are rejected when the registry is built
    chain.push(next);
  }
  return chain;
}

/**
 * Checks, before any run starts, that every named profile and its fallbacks exist and have their
 * API keys. Throws `PROFILE_NOT_FOUND` or `MISSING_API_KEY` (naming the variable).
 *
 * @example
 * ```ts
 * checkProfileKeys(['fast', 'smart'], registry); // throws if OPENAI_API_KEY is missing
 * ```
 */
export function checkProfileKeys(
  names: string | readonly string[],
  registry: ProfileRegistry,
  env: NodeJS.ProcessEnv = process.env,
): void {
  for (const name of typeof names === 'string' ? [names] : names) {
    for (const member of fallbackChain(name, registry))
      resolveApiKey(member, registry.get(member), env);
  }
}
