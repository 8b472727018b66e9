/**
 * What a run of a case produced, as scorers see it ({@link EvalTranscript}): built from the
 * agency's responses (one per turn) or from an ensemble's result.
 * @module
 */
import type { AgencyResponse } from '../agency/result.js';
import type { ConversationResult } from '../ensembles/result.js';
import type { DelegationRecord, EvalTranscript, ToolCallRecord } from './types.js';

function parseArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Arguments that are not JSON: kept as the text.
    return text;
  }
}

/** A final output as text: strings as they are, anything else as JSON. */
export function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** The transcript of an agency case: its turns' responses, in order, and the wall time. */
export function agencyTranscript(
  responses: readonly AgencyResponse[],
  latencyMs: number,
): EvalTranscript {
  const toolCalls: ToolCallRecord[] = [];
  const delegations: DelegationRecord[] = [];
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let modelCalls = 0;
  let maxDepth = 0;
  let costPico: number | undefined = 0;
  for (const response of responses) {
    for (const tagged of response.newItems) {
      maxDepth = Math.max(maxDepth, tagged.depth);
      const item = tagged.item as { type?: string; name?: string; arguments?: string };
      if (item.type !== 'function_call') continue;
      const args = parseArgs(item.arguments);
      toolCalls.push({ agent: tagged.agent, tool: String(item.name), args, depth: tagged.depth });
      if (item.name === 'send_message' && args && typeof args === 'object') {
        const { recipient, message } = args as { recipient?: unknown; message?: unknown };
        delegations.push({
          from: tagged.agent,
          to: String(recipient),
          message: String(message ?? ''),
          depth: tagged.depth,
        });
      }
    }
    modelCalls += response.usage.requests;
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    usage.totalTokens += response.usage.totalTokens;
    costPico =
      costPico === undefined || response.usage.costPico === undefined
        ? undefined
        : costPico + response.usage.costPico;
  }
  const last = responses.at(-1);
  return {
    output: outputText(last?.finalOutput),
    finalOutput: last?.finalOutput,
    toolCalls,
    delegations,
    modelCalls,
    maxDepth,
    usage,
    ...(costPico === undefined || responses.length === 0 ? {} : { cost: costPico / 1e12 }),
    latencyMs,
  };
}

/** The answer of an ensemble run: the last successful turn's output (its `response` text if any). */
export function ensembleAnswer(result: ConversationResult): unknown {
  const turns = result.conversation_history.filter(
    (turn) => (turn.status ?? 'success') === 'success',
  );
  const data = turns.at(-1)?.output_data as Record<string, unknown> | undefined;
  if (!data) return undefined;
  for (const key of ['response', 'text', 'output', 'answer'])
    if (typeof data[key] === 'string') return data[key];
  return data;
}

/** The transcript of an ensemble case: agent requests count as delegations, agents as depth 0. */
export function ensembleTranscript(result: ConversationResult, latencyMs: number): EvalTranscript {
  const delegations: DelegationRecord[] = result.conversation_history.flatMap((turn) =>
    (turn.agent_requests ?? []).map((request) => ({
      from: turn.agent_name,
      to: String((request as { target_agent_type?: unknown }).target_agent_type ?? ''),
      message: JSON.stringify((request as { parameters?: unknown }).parameters ?? {}),
      depth: 0,
    })),
  );
  const answer = ensembleAnswer(result);
  return {
    output: outputText(answer),
    finalOutput: answer,
    toolCalls: [],
    delegations,
    modelCalls: result.usage.requests,
    maxDepth: 0,
    usage: {
      inputTokens: result.usage.input_tokens,
      outputTokens: result.usage.output_tokens,
      totalTokens: result.usage.total_tokens,
    },
    latencyMs,
  };
}
