/**
 * Embedders: the {@link Embedder} interface memory recall uses, and embedders made from model
 * profiles (OpenAI, OpenAI-compatible servers, Ollama) through their `/embeddings` endpoint.
 * @module
 */
import { ConfigError } from '../errors.js';
import { apiKeyEnvFor } from '../models/apiKeys.js';
import { OLLAMA_DEFAULT_BASE_URL, type ModelProfile } from '../models/profile.js';

/**
 * Turns texts into vectors of `dimensions` numbers, one per text, in order. Bring your own (any
 * object of this shape), use {@link profileEmbedder}, or `HashedEmbedder` from `colloquy/testing`.
 */
export interface Embedder {
  readonly dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
  /**
   * The model's name, stored with every vector so that a change of embedder is noticed (default:
   * `custom-<dimensions>`).
   */
  readonly model?: string;
}

/** The name an embedder's vectors are stored under. */
export function embedderModel(embedder: Embedder): string {
  return embedder.model ?? `custom-${embedder.dimensions}`;
}

/** Providers whose profiles can embed. */
const EMBEDDING_PROVIDERS = ['openai', 'openai-compatible', 'ollama'] as const;

/** Known output sizes of common embedding models (others need `dimensions`). */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
};

/** Options of {@link profileEmbedder}. */
export interface ProfileEmbedderOptions {
  /** The profile's name, for error messages. */
  name: string;
  /** Output size (default: known for common models, else required). */
  dimensions?: number;
  /** Per-request timeout in ms (default: the profile's `timeout_seconds`, else 30 s). */
  timeoutMs?: number;
  /** Environment for API keys (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * An embedder for a model profile of provider `openai`, `openai-compatible` or `ollama`: it calls
 * the provider's OpenAI-style `POST {base_url}/embeddings`. Fails at once (not at the first call)
 * for another provider, or when the output size is unknown.
 */
export function profileEmbedder(profile: ModelProfile, options: ProfileEmbedderOptions): Embedder {
  const provider = profile.provider as (typeof EMBEDDING_PROVIDERS)[number];
  if (!EMBEDDING_PROVIDERS.includes(provider)) {
    throw new ConfigError(
      `Profile "${options.name}" (provider ${profile.provider}) cannot embed: memory embedders need a profile of provider ${EMBEDDING_PROVIDERS.join(', ')}. Name another profile in memory.embedder.`,
    );
  }
  const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[profile.model];
  if (dimensions === undefined) {
    throw new ConfigError(
      `Profile "${options.name}": the output size of embedding model "${profile.model}" is not known. Give it: memory: { embedder: { profile: "${options.name}", dimensions: N } }.`,
    );
  }
  const base = (
    profile.base_url ??
    (provider === 'ollama' ? OLLAMA_DEFAULT_BASE_URL : 'https://api.openai.com/v1')
  ).replace(/\/+$/, '');
  const env = options.env ?? process.env;
  const keyEnv = apiKeyEnvFor(profile);
  const timeoutMs = options.timeoutMs ?? (profile.timeout_seconds ?? 30) * 1000;
  const doFetch = options.fetch ?? fetch;
  return {
    dimensions,
    model: profile.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const key = keyEnv ? env[keyEnv] : undefined;
      const response = await doFetch(`${base}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({ model: profile.model, input: texts }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        throw new Error(
          `Embedding with profile "${options.name}" failed: HTTP ${response.status} from ${base}/embeddings.`,
        );
      }
      const body = (await response.json()) as {
        data?: Array<{ embedding: number[]; index?: number }>;
      };
      const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (data.length !== texts.length || data.some((d) => d.embedding.length !== dimensions)) {
        throw new Error(
          `Embedding with profile "${options.name}" returned ${data.length} vectors of ${data[0]?.embedding.length ?? 0} numbers for ${texts.length} texts; expected ${dimensions} numbers each (set memory.embedder.dimensions).`,
        );
      }
      return data.map((d) => d.embedding);
    },
  };
}

/** Cosine similarity of two vectors of equal length (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
