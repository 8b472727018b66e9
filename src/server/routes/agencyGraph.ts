/**
 * `GET /agencies/:name/graph`: everything a UI needs to draw an agency and explain each agent:
 * entry points, flows, and per agent its description, instructions, model, tools and handoffs,
 * plus the Mermaid text of the graph.
 * @module
 */
import type { Agent as SdkAgent } from '@openai/agents-core';
import { Hono } from 'hono';
import type { Agency } from '../../agency/agency.js';
import { describeAgent } from '../../agency/agent.js';
import { agencyToMermaid } from '../../agency/mermaid.js';
import { agencyNamed, type RouteContext } from '../context.js';

/** One agent as `GET /agencies/:name/graph` describes it. */
export interface AgentDetail {
  name: string;
  description: string;
  /** The instructions text, or null when they are computed at run time (a function). */
  instructions: string | null;
  /** The model's name, or null when the agent uses the runner's default model. */
  model: string | null;
  modelSettings: Record<string, unknown>;
  tools: Array<{ name: string; description: string }>;
  handoffs: string[];
  /** Agents it may message through send_message. */
  recipients: string[];
  entryPoint: boolean;
}

/**
 * The name a user knows a model by: a string model as is; an object's `name`, `modelName` or
 * `model`; a wrapper's inner model; else its kind (`ScriptedModel` → `scripted`). Never a class
 * name such as `Object` or `ScriptedModel`.
 */
export function modelName(model: unknown, depth = 0): string | null {
  if (typeof model === 'string') return model === '' ? null : model;
  if (!model || typeof model !== 'object' || depth > 4) return null;
  const named = model as { name?: unknown; modelName?: unknown; model?: unknown; inner?: unknown };
  for (const value of [named.name, named.modelName, named.model])
    if (typeof value === 'string' && value !== '') return value;
  const inner = modelName(
    named.inner ?? (typeof named.model === 'object' ? named.model : null),
    depth + 1,
  );
  if (inner) return inner;
  const className = (model as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof className === 'string' && className !== 'Object' && className !== '') {
    const kind = className.replace(/Model$/, '').replace(/^./, (c) => c.toLowerCase());
    if (kind) return kind;
  }
  return 'custom model';
}

/** Describes one agent of an agency for the studio. */
export function agentDetail(agency: Agency, agent: SdkAgent<any, any>): AgentDetail {
  return {
    name: agent.name,
    description: describeAgent(agent),
    instructions: typeof agent.instructions === 'string' ? agent.instructions : null,
    model: modelName(agent.model),
    modelSettings: { ...(agent.modelSettings ?? {}) } as Record<string, unknown>,
    tools: agent.tools.map((tool) => ({
      name: tool.name,
      description: 'description' in tool ? String(tool.description ?? '') : '',
    })),
    handoffs: agent.handoffs.map((handoff) =>
      'agentName' in handoff ? handoff.agentName : (handoff as SdkAgent<any, any>).name,
    ),
    recipients: [...agency.recipientsOf(agent.name)],
    entryPoint: agency.entryPoints.includes(agent.name),
  };
}

/** The body of `GET /agencies/:name/graph`. */
export function agencyGraph(name: string, agency: Agency) {
  return {
    name,
    entryPoints: [...agency.entryPoints],
    flows: agency.flows,
    agents: [...agency.agents.values()].map((agent) => agentDetail(agency, agent)),
    mermaid: agencyToMermaid(agency),
  };
}

/** `/agencies/:name/graph`. */
export function agencyGraphRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.get('/:name/graph', (c) => {
    const name = c.req.param('name');
    return c.json(agencyGraph(name, agencyNamed(context, name)));
  });
  return app;
}
