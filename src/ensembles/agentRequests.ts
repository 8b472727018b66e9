/**
 * Requests in a script agent's reply (`agent_requests`): a question for the user
 * (`{ prompt, key? }`, answered by the run's input handler), or a request that another agent run
 * (llm-orc's AgentRequest, `{ target_agent_type, parameters, priority? }`, ADR-005's
 * "process_agent_requests"). The target runs in the next step with the parameters in its input.
 * @module
 */
import { z } from 'zod';
import type { AgentRequest, PendingAgentRequest, SchedulerBook } from './runState.js';
import type { Ensemble } from './schema.js';

/** A question for the user. */
export interface InputRequestSpec {
  prompt: string;
  key: string;
}

const inputRequestSchema = z.object({
  type: z.literal('input').optional(),
  prompt: z.union([z.string(), z.number(), z.boolean()]),
  key: z.string().min(1).optional(),
});

const agentRequestInSchema = z.object({
  target_agent_type: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()).default({}),
  priority: z.number().default(0),
});

/** The requests of one reply, split by kind; `error` names the first malformed or unknown one. */
export interface ParsedRequests {
  inputs: InputRequestSpec[];
  agents: AgentRequest[];
  error?: string;
}

/**
 * The agent of the ensemble a request names: the agent of that exact name, else (as llm-orc
 * matches) the first agent whose name contains it. Undefined when none does.
 */
export function resolveTarget(ensemble: Ensemble, target: string): string | undefined {
  return (
    ensemble.agents.find((agent) => agent.name === target)?.name ??
    ensemble.agents.find((agent) => agent.name.includes(target))?.name
  );
}

/** Parses a reply's `agent_requests` (anything: it comes from a script). */
export function parseAgentRequests(ensemble: Ensemble, raw: unknown): ParsedRequests {
  const parsed: ParsedRequests = { inputs: [], agents: [] };
  if (raw === undefined || raw === null) return parsed;
  if (!Array.isArray(raw))
    return {
      ...parsed,
      error: `agent_requests is ${JSON.stringify(raw).slice(0, 80)}, not a list`,
    };
  for (const [index, entry] of raw.entries()) {
    const agent = agentRequestInSchema.safeParse(entry);
    if (agent.success) {
      const target = resolveTarget(ensemble, agent.data.target_agent_type);
      if (!target)
        return {
          ...parsed,
          error: `agent_requests[${index}] names target_agent_type "${agent.data.target_agent_type}", which is no agent of ensemble "${ensemble.name}" (agents: ${ensemble.agents.map((a) => a.name).join(', ')})`,
        };
      parsed.agents.push({ ...agent.data, target_agent_type: target });
      continue;
    }
    const input = inputRequestSchema.safeParse(entry);
    if (input.success) {
      parsed.inputs.push({
        prompt: String(input.data.prompt),
        key: input.data.key ?? 'user_input',
      });
      continue;
    }
    return {
      ...parsed,
      error: `agent_requests[${index}] is ${JSON.stringify(entry).slice(0, 120)}: expected {"prompt": "..."} (a question) or {"target_agent_type": "agent", "parameters": {...}} (an agent request)`,
    };
  }
  return parsed;
}

/** Files an agent's requests in the book: each target gets them, highest priority first. */
export function fileAgentRequests(
  book: SchedulerBook,
  from: string,
  requests: AgentRequest[],
): void {
  for (const request of requests) {
    const queue: PendingAgentRequest[] = (book.requests[request.target_agent_type] ??= []);
    queue.push({ from, parameters: request.parameters, priority: request.priority });
    queue.sort((a, b) => b.priority - a.priority);
  }
}
