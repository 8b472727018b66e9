/**
 * Provider adapters: one profile to one `@openai/agents-core` Model, with no retry or fallback
 * wrapping (see `createModel` for that).
 *
 * - `openai`: `OpenAIResponsesModel` (or `OpenAIChatCompletionsModel` with `api: chat`) over an
 *   `openai` client with the profile's `base_url`, key and timeout; the client's own retries are
 *   off so that the SDK's retry settings are the only ones.
 * - `anthropic`, `ollama`, `openai-compatible`: `aisdk()` over `@ai-sdk/anthropic` or
 *   `@ai-sdk/openai-compatible` (Ollama through its OpenAI-compatible `/v1` endpoint). Those
 *   packages are optional peers, imported on the model's first call (see `aiSdk.ts`).
 * - `scripted`: `ScriptedModel` with `repeatLast`; `replay`: `ReplayModel`.
 * @module
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { createAnthropic } from '@ai-sdk/anthropic';
import type { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Model } from '@openai/agents-core';
import { OpenAIChatCompletionsModel, OpenAIResponsesModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { importAiSdk, LazyModel, type ImportModule } from './aiSdk.js';
import { resolveApiKey } from './apiKeys.js';
import { createLlmOrcProviderModel } from './llmOrcProviders.js';
import { OLLAMA_DEFAULT_BASE_URL, scriptedStepSchema, type ModelProfile } from './profile.js';
import { ReplayModel } from './replayModel.js';
import { ScriptedModel } from './scriptedModel.js';
import type { ScriptedStep } from './scriptedModel.js';

/** What a provider adapter needs besides the profile. */
export interface ProviderContext {
  /** The profile name, for messages. */
  name: string;
  env: NodeJS.ProcessEnv;
  /** The directory relative `script_file` and `cassette` paths resolve from. */
  baseDir: string;
  /** Imports the optional AI SDK packages (default: `import()`); tests pass a fake. */
  importModule?: ImportModule;
}

function loadScript(name: string, profile: ModelProfile, baseDir: string): ScriptedStep[] {
  if (profile.script) return profile.script as ScriptedStep[];
  const file = path.resolve(baseDir, profile.script_file!);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new ConfigError(
      `Profile "${name}" has script_file ${file}, which could not be read: ${(error as Error).message}. Fix the path (relative to the config file).`,
      { cause: error },
    );
  }
  const parsed = z.array(scriptedStepSchema).safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `Profile "${name}" has script_file ${file}, which is not a list of steps (strings or { tool, args }): ${parsed.error.issues[0]?.message}.`,
    );
  }
  return parsed.data as ScriptedStep[];
}

function openaiModel(name: string, profile: ModelProfile, env: NodeJS.ProcessEnv): Model {
  const client = new OpenAI({
    apiKey: resolveApiKey(name, profile, env),
    baseURL: profile.base_url,
    maxRetries: 0,
    ...(profile.timeout_seconds === undefined ? {} : { timeout: profile.timeout_seconds * 1000 }),
  });
  return profile.api === 'chat'
    ? new OpenAIChatCompletionsModel(client, profile.model)
    : new OpenAIResponsesModel(client, profile.model);
}

/**
 * Builds the bare Model of one profile. Throws `MISSING_API_KEY` when its key is not set and
 * ConfigError when a provider field is missing.
 */
export function createProviderModel(profile: ModelProfile, context: ProviderContext): Model {
  const { name, env, baseDir } = context;
  const llmOrc = createLlmOrcProviderModel(profile);
  if (llmOrc) return llmOrc;
  switch (profile.provider) {
    case 'openai':
      return openaiModel(name, profile, env);
    case 'anthropic':
    case 'anthropic-api': {
      const apiKey = resolveApiKey(name, profile, env);
      return new LazyModel(async () => {
        const sdk = await importAiSdk(name, 'anthropic', '@ai-sdk/anthropic', context.importModule);
        const create = sdk.provider.createAnthropic as typeof createAnthropic;
        return sdk.aisdk(create({ apiKey, baseURL: profile.base_url })(profile.model));
      });
    }
    case 'google-gemini': {
      const apiKey = resolveApiKey(name, profile, env);
      return new LazyModel(async () => {
        const sdk = await importAiSdk(
          name,
          'google-gemini',
          '@ai-sdk/google',
          context.importModule,
        );
        const create = sdk.provider.createGoogleGenerativeAI as typeof createGoogleGenerativeAI;
        return sdk.aisdk(create({ apiKey, baseURL: profile.base_url })(profile.model));
      });
    }
    case 'ollama':
    case 'openai-compatible': {
      const baseURL =
        profile.base_url ?? (profile.provider === 'ollama' ? OLLAMA_DEFAULT_BASE_URL : undefined);
      if (!baseURL) {
        throw new ConfigError(
          `Profile "${name}" uses provider openai-compatible but has no base_url. Set base_url to the server's /v1 URL.`,
        );
      }
      const apiKey = resolveApiKey(name, profile, env);
      const kind = profile.provider;
      return new LazyModel(async () => {
        const sdk = await importAiSdk(
          name,
          kind,
          '@ai-sdk/openai-compatible',
          context.importModule,
        );
        const create = sdk.provider.createOpenAICompatible as typeof createOpenAICompatible;
        const provider = create({ name: kind, baseURL, apiKey, includeUsage: true });
        return sdk.aisdk(provider.chatModel(profile.model));
      });
    }
    case 'scripted':
      return new ScriptedModel(loadScript(name, profile, baseDir), { name, repeatLast: true });
    case 'replay':
      return new ReplayModel(path.resolve(baseDir, profile.cassette!), { label: name });
    default:
      throw new ConfigError(
        `Profile "${name}" uses provider ${profile.provider}, which has no adapter. Use one of openai, anthropic, anthropic-api, google-gemini, ollama, openai-compatible, scripted, replay, mock.`,
      );
  }
}
