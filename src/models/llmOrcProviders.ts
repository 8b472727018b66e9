/**
 * The providers llm-orc profiles name that Colloquy's core adapters do not: `mock*` models that
 * answer offline, `anthropic-api` (Anthropic), and `google-gemini` (the AI SDK's Google provider
 * through `aisdk()`, loaded only when a profile uses it).
 * @module
 */
import { createRequire } from 'node:module';
import type { Model } from '@openai/agents-core';
import { resolveApiKey } from './apiKeys.js';
import type { ModelProfile } from './profile.js';
import { lastUserText } from './requestText.js';
import { ScriptedModel } from './scriptedModel.js';

const require = createRequire(import.meta.url);

/** The context a provider needs besides the profile (see `ProviderContext`). */
export interface LlmOrcProviderContext {
  name: string;
  env: NodeJS.ProcessEnv;
}

/** Whether a profile is answered by the offline mock (llm-orc: any model whose name starts with `mock`). */
export function isMockProfile(profile: Pick<ModelProfile, 'model' | 'provider'>): boolean {
  return profile.provider === 'mock' || profile.model.startsWith('mock');
}

/** The offline mock's deterministic reply: the model name and the first 100 characters of the prompt. */
export function mockReply(model: string, prompt: string): string {
  const head = prompt.length > 100 ? `${prompt.slice(0, 100)}...` : prompt;
  return `[${model}] offline mock reply. Prompt began: ${head}`;
}

/** A model that answers every request with {@link mockReply}, with no network. */
export function createMockModel(model: string): Model {
  return new ScriptedModel((request) => mockReply(model, lastUserText(request)), {
    name: model,
    repeatLast: true,
  });
}

function aisdkModel(languageModel: unknown): Model {
  const { aisdk } = require('@openai/agents-extensions/ai-sdk') as {
    aisdk: (model: unknown) => Model;
  };
  return aisdk(languageModel);
}

/**
 * Builds the model of an llm-orc-only provider, or returns undefined when the profile uses one of
 * the core providers. Throws `MISSING_API_KEY` when a key is needed and not set.
 */
export function createLlmOrcProviderModel(
  profile: ModelProfile,
  context: LlmOrcProviderContext,
): Model | undefined {
  if (isMockProfile(profile)) return createMockModel(profile.model);
  if (profile.provider === 'anthropic-api') {
    const { createAnthropic } = require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic');
    const provider = createAnthropic({
      apiKey: resolveApiKey(context.name, profile, context.env),
      baseURL: profile.base_url,
    });
    return aisdkModel(provider(profile.model));
  }
  if (profile.provider === 'google-gemini') {
    const { createGoogleGenerativeAI } =
      require('@ai-sdk/google') as typeof import('@ai-sdk/google');
    const provider = createGoogleGenerativeAI({
      apiKey: resolveApiKey(context.name, profile, context.env),
      baseURL: profile.base_url,
    });
    return aisdkModel(provider(profile.model));
  }
  return undefined;
}
