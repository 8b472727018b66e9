/**
 * The SDK's default model provider, as `@openai/agents` sets it: an agent whose `model` is a
 * plain name (`'gpt-4.1-mini'`) runs on OpenAI. Colloquy's entry point installs it because the
 * AI-SDK adapter (whose import used to install it as a side effect) now loads only on demand.
 *
 * The provider loads `@openai/agents-openai` (and the OpenAI client's resources) when the first
 * agent asks it for a model, not when `colloquy` is imported: an application whose agents all
 * use other models, a script-only ensemble and an idle server never load it.
 * @module
 */
import { setDefaultModelProvider } from '@openai/agents-core';
import type { Model, ModelProvider } from '@openai/agents-core';

/** `OpenAIProvider`, made on first use (the same provider `@openai/agents` installs). */
class LazyOpenAIProvider implements ModelProvider {
  #provider: Promise<ModelProvider & { close(): Promise<void> }> | undefined;

  #load() {
    this.#provider ??= import('@openai/agents-openai').then(
      ({ OpenAIProvider }) => new OpenAIProvider(),
    );
    return this.#provider;
  }

  async getModel(modelName?: string): Promise<Model> {
    return (await this.#load()).getModel(modelName);
  }

  /** Closes the provider's sessions, if it was ever made. */
  async close(): Promise<void> {
    if (this.#provider) await (await this.#provider).close();
  }
}

/**
 * Makes OpenAI the default model provider of the SDK (loaded when an agent first needs a model).
 * Call `setDefaultModelProvider` after importing Colloquy to use another.
 */
export function useOpenAIByDefault(): void {
  setDefaultModelProvider(new LazyOpenAIProvider());
}
