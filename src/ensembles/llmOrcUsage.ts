/**
 * The one place usage changes spelling: an ensemble counts in {@link Usage} (camelCase) and
 * writes llm-orc's snake_case only into its turns and results (llm-orc's output format, which is
 * also the saved run state).
 * @module
 */
import { addUsage, emptyUsage, type Usage } from '../usage.js';
import type { LlmOrcUsage } from './runState.js';

export type { LlmOrcUsage };

/** A usage as llm-orc's output format spells it (`input_tokens`, …). */
export function toLlmOrcUsage(usage: Usage): LlmOrcUsage {
  return {
    requests: usage.requests,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

/** A usage read back from llm-orc's output format (a child run's result, a saved turn). */
export function fromLlmOrcUsage(usage: LlmOrcUsage): Usage {
  return {
    requests: usage.requests,
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
  };
}

/** Two llm-orc usages added up (`b` may be absent), as a new llm-orc usage. */
export function addLlmOrcUsage(a: LlmOrcUsage, b: LlmOrcUsage | undefined): LlmOrcUsage {
  if (!b) return a;
  const sum = fromLlmOrcUsage(a);
  addUsage(sum, fromLlmOrcUsage(b));
  return toLlmOrcUsage(sum);
}

/** An all-zero usage in llm-orc's spelling. */
export function emptyLlmOrcUsage(): LlmOrcUsage {
  return toLlmOrcUsage(emptyUsage());
}
