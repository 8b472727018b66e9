/**
 * The AI SDK path (`anthropic`, `ollama`, `openai-compatible` profiles): `aisdk()` from
 * `@openai/agents-extensions` over an `@ai-sdk/*` provider. These packages are optional peer
 * dependencies of Colloquy, loaded by dynamic `import()` the first time such a model is called, so
 * that an install which never uses them does not get them (nor the second copy of
 * `@openai/agents-core` that `@openai/agents-extensions` pins).
 * @module
 */
import type {
  Model,
  ModelRequest,
  ModelResponse,
  ModelRetryAdvice,
  ModelRetryAdviceRequest,
  StreamEvent,
} from '@openai/agents-core';
import { ConfigError } from '../errors.js';

/** The packages every AI SDK profile needs, besides its provider package. */
export const AI_SDK_ADAPTER_PACKAGES = ['@openai/agents-extensions', 'ai'] as const;

/** Imports a module by name (default: the runtime's `import()`); tests pass a fake. */
export type ImportModule = (specifier: string) => Promise<unknown>;

const defaultImport: ImportModule = (specifier) => import(specifier);

/** A Model whose real model is built on first use, by an async `load`. */
export class LazyModel implements Model {
  #pending: Promise<Model> | undefined;
  #loaded: Model | undefined;

  constructor(private readonly load: () => Promise<Model>) {}

  /** The real model, loading it once (a failed load is retried on the next call). */
  resolve(): Promise<Model> {
    this.#pending ??= this.load().then(
      (model) => (this.#loaded = model),
      (error: unknown) => {
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return (await this.resolve()).getResponse(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    yield* (await this.resolve()).getStreamedResponse(request);
  }

  getRetryAdvice(
    args: ModelRetryAdviceRequest,
  ): Promise<ModelRetryAdvice | undefined> | ModelRetryAdvice | undefined {
    return this.#loaded?.getRetryAdvice?.(args);
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Imports the optional packages an AI SDK profile needs; a missing one is a {@link ConfigError}
 * naming the profile, the packages and the `npm install` line that fixes it.
 */
export async function importAiSdk(
  profileName: string,
  provider: string,
  providerPackage: string,
  importModule: ImportModule = defaultImport,
): Promise<{ aisdk: (model: unknown) => Model; provider: Record<string, unknown> }> {
  const needed = [...AI_SDK_ADAPTER_PACKAGES, providerPackage];
  try {
    const adapter = (await importModule('@openai/agents-extensions/ai-sdk')) as {
      aisdk: (model: unknown) => Model;
    };
    const providerModule = (await importModule(providerPackage)) as Record<string, unknown>;
    return { aisdk: adapter.aisdk, provider: providerModule };
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new ConfigError(
      `Profile "${profileName}" uses provider ${provider}, which runs through the AI SDK adapter, ` +
        `but a package it needs is not installed (${(error as Error).message.split('\n')[0]}). ` +
        `Install the optional peer dependencies: npm install ${needed.join(' ')}`,
      { cause: error },
    );
  }
}
