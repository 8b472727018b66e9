/**
 * Model profiles: named model configurations that agents and ensembles refer to by name.
 * Loaded from `colloquy.yaml` (project) and `~/.config/colloquy/profiles.yaml` (user).
 * @module
 */
import { z } from 'zod';

/** Providers a profile can name. */
export const PROVIDERS = [
  'openai',
  'anthropic',
  'ollama',
  'openai-compatible',
  'scripted',
  'replay',
  // llm-orc's provider names: `anthropic-api` is `anthropic`; `mock` answers offline.
  'anthropic-api',
  'google-gemini',
  'mock',
] as const;

/** A provider name. */
export type ProviderName = (typeof PROVIDERS)[number];

/** One scripted step as written in YAML: final text, or a tool call. */
export const scriptedStepSchema = z.union([
  z.string(),
  z
    .object({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) })
    .strict(),
]);

/** Backoff between retries, in milliseconds. Defaults: 250, 2000, 2, jitter on, Retry-After capped at 60000. */
export const retryBackoffSchema = z
  .object({
    initial_delay_ms: z.number().min(0).optional(),
    max_delay_ms: z.number().min(0).optional(),
    multiplier: z.number().min(1).optional(),
    jitter: z.boolean().optional(),
    /** The longest Retry-After delay honoured; longer ones are cut to this. */
    max_retry_after_ms: z.number().min(0).optional(),
  })
  .strict();

/** The schema of one model profile. Field names follow llm-orc's (snake_case). */
export const modelProfileSchema = z
  .object({
    model: z.string().min(1),
    provider: z.enum(PROVIDERS),
    system_prompt: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().optional(),
    timeout_seconds: z.number().positive().optional(),
    fallback_model_profile: z.string().min(1).optional(),
    base_url: z.string().url().optional(),
    api_key_env: z.string().min(1).optional(),
    /** `openai` only: `responses` (default) or `chat` (Chat Completions). */
    api: z.enum(['responses', 'chat']).optional(),
    /** `scripted` only: the steps to play, inline. */
    script: z.array(scriptedStepSchema).optional(),
    /** `scripted` only: a YAML/JSON file with the steps, relative to the config file. */
    script_file: z.string().min(1).optional(),
    /** `replay` only: the cassette file to play back. */
    cassette: z.string().min(1).optional(),
    /** Retries on 429/5xx/network errors before falling back (default 3). */
    max_retries: z.number().int().min(0).max(10).optional(),
    /** Backoff between retries (the SDK's exponential backoff with jitter; Retry-After wins). */
    retry_backoff: retryBackoffSchema.optional(),
    /** USD per token: one rate, or `{ input, output }` (for `usage.cost`). */
    cost_per_token: z
      .union([
        z.number().min(0),
        z.object({ input: z.number().min(0), output: z.number().min(0) }).strict(),
      ])
      .optional(),
    /** USD per million tokens, `{ input, output }` (wins over `cost_per_token`). */
    cost_per_million: z
      .object({ input: z.number().min(0), output: z.number().min(0) })
      .strict()
      .optional(),
    /** llm-orc: provider-specific request options (e.g. Ollama's `num_ctx`). */
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** One model profile. */
export type ModelProfile = z.infer<typeof modelProfileSchema>;

/** The default base URL of a local Ollama's OpenAI-compatible endpoint. */
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';
