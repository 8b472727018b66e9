/**
 * What an agent is given, built from the committed state: the task, its dependencies' latest
 * outputs, the failures among them, requests other agents made of it, and for llm-orc's
 * `input_key` the selected slice of the first dependency's output (ADR-014).
 * @module
 */
import { isDispatchName, parseDispatch, showValue } from './dispatch.js';
import { referenceValue } from './guards.js';
import type { AgentInput, SchedulerBook } from './runState.js';
import type { EnsembleAgent } from './schema.js';
import type { ConversationState } from './state.js';

/** The value `input_key` selects from the first dependency's output, or an error. */
export function selectInputKey(
  agent: EnsembleAgent,
  state: ConversationState,
): { value: unknown } | { error: string } {
  const first = agent.depends_on[0]?.agent_name;
  const key = agent.input_key!;
  if (first === undefined)
    return { error: `input_key "${key}" needs a dependency to select from; add depends_on` };
  const output = state.latest_outputs[first];
  if (!output)
    return { error: `input_key "${key}": dependency "${first}" has no successful output` };
  if (!Object.hasOwn(output, key))
    return {
      error: `input_key "${key}" is not a key of the output of "${first}" (keys: ${Object.keys(output).join(', ') || 'none'})`,
    };
  return { value: output[key] };
}

/** The input of an agent from the committed state (and the book's waiting requests). */
export function agentInput(
  agent: EnsembleAgent,
  task: string,
  state: ConversationState,
  book?: SchedulerBook,
): AgentInput {
  const context: Record<string, unknown> = {};
  const failed: Record<string, string> = {};
  for (const dep of agent.depends_on) {
    const output = state.latest_outputs[dep.agent_name];
    if (output !== undefined) context[dep.agent_name] = output;
    const status = state.latest_status[dep.agent_name];
    if (status?.status === 'failed') failed[dep.agent_name] = status.error ?? 'failed';
  }
  const input: AgentInput = { input: task, context };
  if (Object.keys(failed).length) input.failed = failed;
  const requests = book?.requests[agent.name];
  if (requests?.length) {
    input.requests = structuredClone(requests);
    input.parameters = structuredClone(requests[0]!.parameters);
  }
  if (agent.dispatch !== undefined) input.dispatch = resolveDispatch(agent.dispatch, state);
  if (agent.input_key !== undefined) {
    const selected = selectInputKey(agent, state);
    if ('error' in selected) input.input_error = selected.error;
    else
      input.input =
        typeof selected.value === 'string' ? selected.value : JSON.stringify(selected.value);
  }
  return input;
}

/**
 * The ensemble a `dispatch:` names, from the committed state: the literal name, or the value of
 * `${agent.field}` in that agent's latest output, which must be an ensemble name. Recorded in the
 * agent's input, so that a resumed step dispatches to the same ensemble.
 */
export function resolveDispatch(
  reference: string,
  state: ConversationState,
): NonNullable<AgentInput['dispatch']> {
  const spec = parseDispatch(reference);
  if ('problem' in spec) return { reference, problem: spec.problem };
  if (spec.kind === 'literal') return { reference, target: spec.name };
  const status = state.latest_status[spec.agent];
  if (status && status.status !== 'success')
    return {
      reference,
      problem: `"${spec.agent}" ${status.status === 'failed' ? 'failed' : 'was skipped'}${status.error ? ` (${status.error})` : ''}`,
    };
  const value = referenceValue(state, [spec.agent, ...spec.path]);
  if (value === null) {
    const output = state.latest_outputs[spec.agent];
    return {
      reference,
      problem: output
        ? `the output of "${spec.agent}" has no ${spec.path.join('.')} (its keys: ${Object.keys(output).join(', ') || 'none'})`
        : `"${spec.agent}" has no output yet`,
    };
  }
  if (!isDispatchName(value))
    return {
      reference,
      problem:
        `it is ${showValue(value)}, which is not an ensemble name ` +
        '(a string of letters, digits, "_", "-" and ".", with "/" between folders; no "..")',
    };
  return { reference, target: value };
}

/** Parses JSON text of an array; undefined when it is not one. */
function jsonArray(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || !value.trim().startsWith('[')) return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    // Only looked like a JSON array: not a list.
    return undefined;
  }
}

/** The sub-thread of one instance of an LLM `fan_out` agent. */
export function fanOutThread(agentName: string, index: number): string {
  return `${agentName}#${index}`;
}

/**
 * The items a fan_out agent runs over: the value `input_key` selects, else the first
 * dependency's `response` (an array or JSON text of one), else its only array-valued key.
 */
export function fanOutItems(
  agent: EnsembleAgent,
  state: ConversationState,
): unknown[] | { error: string } {
  const first = agent.depends_on[0]?.agent_name;
  if (agent.input_key !== undefined) {
    const selected = selectInputKey(agent, state);
    if ('error' in selected) return selected;
    return (
      jsonArray(selected.value) ?? {
        error: `fan_out needs an array, but input_key "${agent.input_key}" of "${first}" is ${JSON.stringify(selected.value)?.slice(0, 80)}`,
      }
    );
  }
  const output = first === undefined ? undefined : state.latest_outputs[first];
  if (!output)
    return {
      error:
        first === undefined
          ? 'fan_out needs a dependency whose output is an array; add depends_on'
          : `fan_out: dependency "${first}" has no successful output`,
    };
  const response = jsonArray(output.response);
  if (response) return response;
  const arrays = Object.entries(output).filter(([, value]) => Array.isArray(value));
  if (arrays.length === 1) return arrays[0]![1] as unknown[];
  return {
    error: `fan_out: the output of "${first}" has ${arrays.length} array-valued keys (${arrays.map(([key]) => key).join(', ') || 'none'}); name one with input_key`,
  };
}
