/**
 * Token usage: the one shape agencies, ensembles and traces count model calls in. Ensembles
 * write it in llm-orc's snake_case only where llm-orc's output format needs it (see
 * `ensembles/usage.ts`); nothing else spells it differently.
 * @module
 */
import { z } from 'zod';

/**
 * Token usage summed over model calls: an agency call (nested calls included), an ensemble
 * agent or run, or a trace.
 */
export interface Usage {
  /** Model requests made. */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * What the tokens cost in USD, for runs whose model has a price (profile, `Agency({ prices })`
   * or the built-in table); absent when none had. Exactly `costPico / 10¹²`.
   */
  cost?: number;
  /** The cost in whole pico-dollars (10⁻¹² USD): summed exactly across the call tree. */
  costPico?: number;
}

/** The token counts of a {@link Usage} (what a saved trace keeps). */
export type TokenCounts = Pick<Usage, 'inputTokens' | 'outputTokens' | 'totalTokens'>;

/** A saved {@link TokenCounts}. */
export const tokenCountsSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
});

/** A zero usage. */
export function emptyUsage(): Usage {
  return { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/**
 * Adds `usage` (a {@link Usage}, or the SDK's usage object, which has the same counts) into
 * `into`, in place; costs add up exactly.
 */
export function addUsage(
  into: Usage,
  usage: Pick<Usage, 'requests' | 'inputTokens' | 'outputTokens' | 'totalTokens'> & {
    costPico?: number;
  },
): void {
  into.requests += usage.requests;
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.totalTokens += usage.totalTokens;
  if (usage.costPico !== undefined) setCost(into, (into.costPico ?? 0) + usage.costPico);
}

/** Sets a usage's cost from whole pico-dollars. */
export function setCost(usage: Usage, pico: number): void {
  usage.costPico = pico;
  usage.cost = pico / 1e12;
}
