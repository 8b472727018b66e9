/**
 * Validation retries (agency-swarm's `validation_attempts`): when an output guardrail rejects an
 * agent's answer, the agent gets its answer back with the guardrail's message and tries again,
 * up to `validationAttempts` times, before the run fails with the SDK's
 * `OutputGuardrailTripwireTriggered`. Only the accepted attempt is saved in the thread; usage
 * counts every attempt.
 * @module
 */
import { OutputGuardrailTripwireTriggered } from '@openai/agents-core';
import type { AgentInputItem, RunState } from '@openai/agents-core';

/** The guardrail's message: `outputInfo` as text, or its `message` / `reason` field. */
export function guardrailMessage(error: OutputGuardrailTripwireTriggered<any, any>): string {
  const info = error.result.output.outputInfo as unknown;
  if (typeof info === 'string') return info;
  if (info && typeof info === 'object') {
    const fields = info as { message?: unknown; reason?: unknown };
    if (typeof fields.message === 'string') return fields.message;
    if (typeof fields.reason === 'string') return fields.reason;
    return JSON.stringify(info);
  }
  return error.message;
}

/** The items that tell the agent why its answer was rejected. */
export function feedbackItems(error: OutputGuardrailTripwireTriggered<any, any>): AgentInputItem[] {
  const output = error.result.agentOutput as unknown;
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const name = error.result.guardrail?.name ?? 'output';
  return [
    { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
    {
      role: 'user',
      content: `Your answer did not pass the "${name}" check: ${guardrailMessage(error)}. Answer again, fixing that.`,
    },
  ];
}

/**
 * Runs `run(input)`; when an output guardrail trips and attempts remain, runs it again on the
 * input plus the rejected answer and the guardrail's message. Resumed runs (a RunState) are not
 * retried.
 */
export async function withValidationRetries<T>(
  attempts: number,
  input: AgentInputItem[] | RunState<any, any>,
  run: (input: AgentInputItem[] | RunState<any, any>) => Promise<T>,
): Promise<T> {
  if (attempts === 0) return run(input);
  let current = input;
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(current);
    } catch (error) {
      const retry =
        error instanceof OutputGuardrailTripwireTriggered &&
        attempt < attempts &&
        Array.isArray(current);
      if (!retry) throw error;
      current = [...(current as AgentInputItem[]), ...feedbackItems(error)];
    }
  }
}
