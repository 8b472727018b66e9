/**
 * The agency's graph: its agents (entry points and every agent a flow names) and who may
 * message whom. Checked once, at construction, with messages that name the agents.
 * @module
 */
import type { Agent as SdkAgent } from '@openai/agents-core';
import { AgencyConfigError } from '../errors.js';

/** A directed communication flow: `sender` may message `recipient`. */
export type CommunicationFlow = readonly [
  sender: SdkAgent<any, any>,
  recipient: SdkAgent<any, any>,
];

/** The checked graph of an agency. */
export interface AgencyGraph {
  /** Every agent by name, in first-mention order. */
  agents: Map<string, SdkAgent<any, any>>;
  entryPoints: string[];
  /** sender → recipients, in declaration order. */
  recipients: Map<string, string[]>;
}

/** Builds and checks the graph; throws {@link AgencyConfigError} on a bad set-up. */
export function buildGraph(
  entryPoints: ReadonlyArray<SdkAgent<any, any>>,
  flows: ReadonlyArray<CommunicationFlow>,
): AgencyGraph {
  if (entryPoints.length === 0) {
    throw new AgencyConfigError(
      'An agency needs at least one entry point: pass entryPoints: [agent].',
    );
  }
  const agents = new Map<string, SdkAgent<any, any>>();
  const register = (agent: SdkAgent<any, any>, where: string): void => {
    if (!agent || typeof agent.name !== 'string') {
      throw new AgencyConfigError(`${where} is not an Agent (got ${String(agent)}).`);
    }
    const known = agents.get(agent.name);
    if (known && known !== agent) {
      throw new AgencyConfigError(
        `Two different agents are named "${agent.name}". Agent names must be unique within an agency: rename one.`,
      );
    }
    agents.set(agent.name, agent);
  };
  entryPoints.forEach((agent, i) => register(agent, `entryPoints[${i}]`));

  const recipients = new Map<string, string[]>();
  flows.forEach((flow, i) => {
    if (!Array.isArray(flow) || flow.length !== 2) {
      throw new AgencyConfigError(`communicationFlows[${i}] must be a pair [sender, recipient].`);
    }
    const [sender, recipient] = flow;
    register(sender, `communicationFlows[${i}][0]`);
    register(recipient, `communicationFlows[${i}][1]`);
    if (sender.name === recipient.name) {
      throw new AgencyConfigError(
        `communicationFlows[${i}] lets "${sender.name}" message itself. Remove the flow: an agent cannot message itself.`,
      );
    }
    const list = recipients.get(sender.name) ?? [];
    if (list.includes(recipient.name)) {
      throw new AgencyConfigError(
        `The flow "${sender.name}" → "${recipient.name}" is declared twice (again at communicationFlows[${i}]). Remove the duplicate.`,
      );
    }
    recipients.set(sender.name, [...list, recipient.name]);
  });

  const entryNames = entryPoints.map((agent) => agent.name);
  if (new Set(entryNames).size !== entryNames.length) {
    throw new AgencyConfigError(`entryPoints lists an agent twice: ${entryNames.join(', ')}.`);
  }
  return { agents, entryPoints: entryNames, recipients };
}
