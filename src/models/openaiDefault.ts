/**
 * The SDK's default model provider, as `@openai/agents` sets it: an agent whose `model` is a
 * plain name (`'gpt-4.1-mini'`) runs on OpenAI. Colloquy's entry point installs it because the
 * AI-SDK adapter (whose import used to install it as a side effect) now loads only on demand.
 * @module
 */
import { setDefaultModelProvider } from '@openai/agents-core';
import { OpenAIProvider } from '@openai/agents-openai';

/**
 * Makes OpenAI the default model provider of the SDK. Call `setDefaultModelProvider` after
 * importing Colloquy to use another.
 */
export function useOpenAIByDefault(): void {
  setDefaultModelProvider(new OpenAIProvider());
}
