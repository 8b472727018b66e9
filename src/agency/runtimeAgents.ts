/**
 * Each agent as it runs inside an agency: a clone carrying the shared instructions, the run's
 * additional instructions and its send_message tool. The user's agent objects are not changed,
 * so one agent can serve in several agencies.
 * @module
 */
import type { Agent as SdkAgent, RunContext } from '@openai/agents-core';
import { tracedModel } from '../models/tracedModel.js';
import { describeAgent } from './agent.js';
import { frameOf } from './call.js';
import { journaledModel } from './journal/journaledModel.js';
import { journaledTool } from './journal/journaledTool.js';
import type { AgencyGraph } from './graph.js';
import type { SendFunction, SendMessageToolFactory } from './sendMessage.js';

/** Builds the runtime form of every agent of `graph`, by name. */
export function buildRuntimeAgents(
  graph: AgencyGraph,
  shared: string,
  makeTool: SendMessageToolFactory,
  send: SendFunction,
): Map<string, SdkAgent<any, any>> {
  const runtimeAgents = new Map<string, SdkAgent<any, any>>();
  for (const [name, agent] of graph.agents) {
    const recipients = (graph.recipients.get(name) ?? []).map((recipient) => ({
      name: recipient,
      description: describeAgent(graph.agents.get(recipient)!),
    }));
    // The agent's tools go through the call's step journal (send_message is journaled by `send`).
    const own = agent.tools.map(journaledTool);
    const tools =
      recipients.length > 0 ? [...own, makeTool({ sender: name, recipients, send })] : own;
    const instructions = agent.instructions;
    // Text instructions are joined with the shared ones once, here; only a run's additional
    // instructions (rare) are joined per model call.
    const fixed = typeof instructions === 'function' ? undefined : joinParts(shared, instructions);
    const runtime = agent.clone({
      tools,
      // Model objects that open no generation span of their own get one per call (tracing); their
      // answers go through the call's step journal, when it has one.
      ...(typeof agent.model === 'string'
        ? {}
        : { model: journaledModel(tracedModel(agent.model)) }),
      instructions:
        fixed === undefined
          ? async (runContext: RunContext<any>, self: SdkAgent<any, any>) =>
              joinParts(
                shared,
                await (instructions as Exclude<typeof instructions, string>)(runContext, self),
                frameOf(runContext)?.additionalInstructions,
              )
          : (runContext: RunContext<any>) => {
              const extra = frameOf(runContext)?.additionalInstructions;
              return extra ? joinParts(fixed, extra) : fixed;
            },
    });
    runtimeAgents.set(name, runtime);
  }
  // Handoffs to agents of this agency go to their runtime form, so they keep their tools.
  for (const runtime of runtimeAgents.values()) {
    runtime.handoffs = runtime.handoffs.map((target) =>
      'name' in target && graph.agents.get(target.name) === target
        ? runtimeAgents.get(target.name)!
        : target,
    );
  }
  return runtimeAgents;
}

/** The non-blank parts, separated by blank lines. */
function joinParts(...parts: Array<string | undefined | null>): string {
  return parts.filter((part) => part && part.trim()).join('\n\n');
}
