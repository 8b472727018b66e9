/**
 * The offline `mock*` models of llm-orc profiles (any model whose name starts with `mock`).
 * llm-orc's `anthropic-api` and `google-gemini` providers are handled with the AI SDK path in
 * `providers.ts`.
 * @module
 */
import type { Model } from '@openai/agents-core';
import type { ModelProfile } from './profile.js';
import { lastUserText } from './requestText.js';
import { ScriptedModel } from './scriptedModel.js';

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

/**
 * Builds the model of an llm-orc-only provider that needs no package (the offline `mock*`
 * models), or returns undefined. `anthropic-api` and `google-gemini` go through the AI SDK path
 * of `providers.ts`, loaded only when used.
 */
export function createLlmOrcProviderModel(profile: ModelProfile): Model | undefined {
  return isMockProfile(profile) ? createMockModel(profile.model) : undefined;
}
