/**
 * What model tokens cost: prices per million input and output tokens, from a profile
 * (`cost_per_token` or `cost_per_million`), from a price attached to a Model object, or from a
 * built-in table of well-known models. Costs are kept as whole pico-dollars (10⁻¹² USD), so sums
 * over a call tree are exact.
 * @module
 */
import type { Model } from '@openai/agents-core';

/** USD per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * List prices (USD per million tokens) of well-known models, as published by their providers.
 * Prices change: set `cost_per_million` in the profile to override.
 */
export const KNOWN_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  o3: { inputPerMillion: 2, outputPerMillion: 8 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75 },
  'claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
};

/** Pico-dollars in one dollar. */
export const PICO_PER_USD = 1e12;

const attached = new WeakMap<object, ModelPrice>();

/** Attaches a price to a Model object (profile models get their profile's price). */
export function setModelPrice(model: Model, price: ModelPrice): void {
  attached.set(model, price);
}

/**
 * The price of a model: the one attached to the object, else the table's entry for its name
 * (exact, or the longest known name it starts with, so dated snapshots like
 * `gpt-4o-2024-08-06` match), else undefined.
 */
export function modelPrice(model: Model | string | undefined): ModelPrice | undefined {
  if (model === undefined) return undefined;
  if (typeof model !== 'string') {
    const price = attached.get(model);
    if (price) return price;
    const name =
      (model as { model?: unknown; modelName?: unknown }).model ??
      (model as { modelName?: unknown }).modelName;
    return typeof name === 'string' ? modelPrice(name) : undefined;
  }
  const key = model.replace(/^[a-z-]+\//, '');
  if (KNOWN_MODEL_PRICES[key]) return KNOWN_MODEL_PRICES[key];
  const prefix = Object.keys(KNOWN_MODEL_PRICES)
    .filter((known) => key.startsWith(`${known}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? KNOWN_MODEL_PRICES[prefix] : undefined;
}

/** A profile's own price: `cost_per_million` or `cost_per_token` (one rate, or input/output). */
export function profilePrice(profile: {
  cost_per_token?: number | { input: number; output: number } | undefined;
  cost_per_million?: { input: number; output: number } | undefined;
}): ModelPrice | undefined {
  if (profile.cost_per_million) {
    return {
      inputPerMillion: profile.cost_per_million.input,
      outputPerMillion: profile.cost_per_million.output,
    };
  }
  const perToken = profile.cost_per_token;
  if (perToken === undefined) return undefined;
  const [input, output] =
    typeof perToken === 'number' ? [perToken, perToken] : [perToken.input, perToken.output];
  return { inputPerMillion: input * 1e6, outputPerMillion: output * 1e6 };
}

/** The exact cost in pico-dollars of some tokens at a price. */
export function costPico(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  // A price per million tokens in USD is the price per token in micro-dollars, that is
  // price × 10⁶ pico-dollars per token: whole numbers for any price quoted to 6 decimals.
  const input = Math.round(price.inputPerMillion * 1e6);
  const output = Math.round(price.outputPerMillion * 1e6);
  return input * inputTokens + output * outputTokens;
}
