/**
 * From a profile to a ready Model: the provider model of the profile and of each fallback,
 * wrapped in a {@link FallbackModel} (attempts logged and traced), optionally recorded to a
 * cassette (`COLLOQUY_RECORD=path`), plus the model settings an agent using it should carry.
 * @module
 */
import { readEnv } from '../env.js';
import type { Model, ModelProvider, ModelSettings } from '@openai/agents-core';
import type { Logger } from 'pino';
import { ColloquyError } from '../errors.js';
import { apiKeyEnvFor, fallbackChain } from './apiKeys.js';
import type { ModelAttemptListener } from './attempts.js';
import { chainRetryBudget, FallbackModel } from './fallbackModel.js';
import type { FallbackMember } from './fallbackModel.js';
import type { ModelProfile } from './profile.js';
import type { ProfileRegistry } from './profiles.js';
import { createProviderModel } from './providers.js';
import { modelPrice, profilePrice, setModelPrice } from './pricing.js';
import { RecordingModel } from './recordingModel.js';
import { retrySettings } from './retry.js';

/** Retries of a profile when it sets no `max_retries`. */
export const DEFAULT_MAX_RETRIES = 3;

/** The name given to a profile passed as an object. */
export const INLINE_PROFILE_NAME = 'inline';

/** Options of {@link createModel}. */
export interface CreateModelOptions {
  /** Where API keys and `COLLOQUY_RECORD` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The directory relative paths resolve from (default: the profile's config directory). */
  baseDir?: string;
  /** The logger attempts go to (default: the shared logger). */
  logger?: Logger;
  /** Told about every attempt (for run events). */
  onAttempt?: ModelAttemptListener;
  /** Record to this cassette path; `false` disables `COLLOQUY_RECORD` (default: the env var). */
  record?: string | false;
}

function lookup(
  profileOrName: string | ModelProfile,
  registry: ProfileRegistry,
): [string, ModelProfile] {
  return typeof profileOrName === 'string'
    ? [profileOrName, registry.get(profileOrName)]
    : [INLINE_PROFILE_NAME, profileOrName];
}

function chainOf(
  profileOrName: string | ModelProfile,
  registry: ProfileRegistry,
): Array<[string, ModelProfile]> {
  const [name, profile] = lookup(profileOrName, registry);
  const rest = profile.fallback_model_profile
    ? fallbackChain(profile.fallback_model_profile, registry)
    : [];
  return [
    [name, profile],
    ...rest
      .filter((member) => member !== name)
      .map((member): [string, ModelProfile] => [member, registry.get(member)]),
  ];
}

/** The settings a profile carries into a request (temperature, max tokens, timeout). */
export function profileCallSettings(profile: ModelProfile): ModelSettings {
  const settings: ModelSettings = {};
  if (profile.temperature !== undefined) settings.temperature = profile.temperature;
  if (profile.max_tokens !== undefined) settings.maxTokens = profile.max_tokens;
  if (profile.timeout_seconds !== undefined) settings.timeoutMs = profile.timeout_seconds * 1000;
  return settings;
}

/**
 * The ModelSettings an agent using this profile should carry: temperature, max tokens, the
 * per-attempt timeout (`timeoutMs`) and `retry` (the SDK's retry settings, with a budget covering
 * the profile's retries and every fallback's, and Colloquy's retry policy).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'Writer', model: createModel('fast', registry), modelSettings: profileModelSettings('fast', registry) });
 * ```
 */
export function profileModelSettings(
  profileOrName: string | ModelProfile,
  registry: ProfileRegistry,
): ModelSettings {
  const chain = chainOf(profileOrName, registry);
  const profile = chain[0]![1];
  const backoff = profile.retry_backoff ?? {};
  const budget = chainRetryBudget(
    chain.map(([, member]) => ({ maxRetries: member.max_retries ?? DEFAULT_MAX_RETRIES })),
  );
  return {
    ...profileCallSettings(profile),
    retry: retrySettings({
      maxRetries: budget,
      initialDelayMs: backoff.initial_delay_ms,
      maxDelayMs: backoff.max_delay_ms,
      multiplier: backoff.multiplier,
      jitter: backoff.jitter,
      maxRetryAfterMs: backoff.max_retry_after_ms,
    }),
  };
}

/**
 * Creates the Model of a profile (by name or as an object): the provider's model with its
 * fallbacks, retries and attempt reporting, recorded when `COLLOQUY_RECORD` (or `record`) is set.
 * Throws `PROFILE_NOT_FOUND`, `MISSING_API_KEY` (naming the variable) or `CONFIG_INVALID` at once.
 *
 * @example
 * ```ts
 * const registry = await loadProfiles();
 * const writer = new Agent({
 *   name: 'Writer',
 *   instructions: 'Write haiku.',
 *   model: createModel('fast', registry),
 *   modelSettings: profileModelSettings('fast', registry),
 * });
 * ```
 */
export function createModel(
  profileOrName: string | ModelProfile,
  registry: ProfileRegistry,
  options: CreateModelOptions = {},
): Model {
  const env = options.env ?? process.env;
  const secrets: string[] = [];
  const members: FallbackMember[] = chainOf(profileOrName, registry).map(
    ([name, profile], index) => {
      const baseDir =
        options.baseDir ?? (registry.has(name) ? registry.baseDir(name) : process.cwd());
      const keyEnv = apiKeyEnvFor(profile);
      const key = keyEnv === undefined ? undefined : env[keyEnv];
      if (key) secrets.push(key);
      return {
        profile: name,
        provider: profile.provider,
        model: profile.model,
        instance: createProviderModel(profile, { name, env, baseDir }),
        maxRetries: profile.max_retries ?? DEFAULT_MAX_RETRIES,
        ...(index === 0 ? {} : { settings: profileCallSettings(profile) }),
      };
    },
  );
  const primary = members[0]!;
  const model = new FallbackModel(members, {
    logger: options.logger,
    onAttempt: options.onAttempt,
    secrets,
  });
  const record = options.record === undefined ? readEnv('COLLOQUY_RECORD', env) : options.record;
  const [, primaryProfile] = lookup(profileOrName, registry);
  const price = profilePrice(primaryProfile) ?? modelPrice(primaryProfile.model);
  if (price) setModelPrice(model, price);
  if (!record || primary.provider === 'replay') return model;
  const recording = new RecordingModel(model, {
    cassette: record,
    label: primary.profile,
    secrets,
  });
  if (price) setModelPrice(recording, price);
  return recording;
}

/**
 * A ModelProvider that resolves model names as profile names, so that agents can say
 * `model: 'fast'` when the Runner is built with `new Runner({ modelProvider })`. Agents resolved
 * this way should also carry `profileModelSettings(name, registry)` to get retries.
 */
export class ProfileModelProvider implements ModelProvider {
  readonly #registry: ProfileRegistry;
  readonly #options: CreateModelOptions;
  readonly #defaultProfile: string | undefined;
  readonly #models = new Map<string, Model>();

  constructor(
    registry: ProfileRegistry,
    options: CreateModelOptions & { defaultProfile?: string } = {},
  ) {
    const { defaultProfile, ...rest } = options;
    this.#registry = registry;
    this.#options = rest;
    this.#defaultProfile = defaultProfile;
  }

  getModel(modelName?: string): Model {
    const name = modelName || this.#defaultProfile;
    if (!name) {
      throw new ColloquyError(
        'PROFILE_NOT_FOUND',
        `An agent has no model and the profile provider has no default profile. Known profiles: ${this.#registry.names().join(', ') || '(none)'}. Set the agent's model to a profile name, or pass defaultProfile.`,
      );
    }
    let model = this.#models.get(name);
    if (!model) {
      model = createModel(name, this.#registry, this.#options);
      this.#models.set(name, model);
    }
    return model;
  }
}
