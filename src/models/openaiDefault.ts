/**
 * OpenAI as the provider of plain model names (`'gpt-4.1-mini'`), as `@openai/agents` makes it.
 * An `Agency` gives its own Runner {@link openAIProvider}; the CLI, whose process is Colloquy's,
 * also makes it the SDK's default for the Runners of the modules it loads
 * ({@link useOpenAIByDefault}). Importing `colloquy` changes nothing in the SDK.
 *
 * The provider loads `@openai/agents-openai` (and the OpenAI client's resources) when the first
 * agent asks it for a model: an application whose agents all use other models, a script-only
 * ensemble and an idle server never load it.
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
 * A provider that runs model names on OpenAI, loading `@openai/agents-openai` when it is first
 * asked for a model: what an `Agency`'s own Runner uses, leaving the SDK's default alone.
 */
export function openAIProvider(): ModelProvider {
  return new LazyOpenAIProvider();
}

/**
 * Makes OpenAI the default model provider of the SDK (loaded when an agent first needs a model).
 * Call `setDefaultModelProvider` after importing Colloquy to use another.
 */
export function useOpenAIByDefault(): void {
  setDefaultModelProvider(new LazyOpenAIProvider());
}
