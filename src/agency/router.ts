/**
 * Entry-point routing: picking which entry point answers a user message, by a function or by a
 * classifier agent, when the caller does not name a recipient.
 * @module
 */
import { Agent as SdkAgent, RunContext } from '@openai/agents-core';
import type { Runner } from '@openai/agents-core';
import { AgencyConfigError } from '../errors.js';
import { describeAgent } from './agent.js';
import type { Usage } from '../usage.js';

/** What a routing function is told. */
export interface RouteRequest {
  message: string;
  chatId: string;
  /** The entry points' names and descriptions. */
  entryPoints: ReadonlyArray<{ name: string; description: string }>;
  context: unknown;
}

/** Picks an entry point's name for a message. */
export type RouteFunction = (request: RouteRequest) => string | Promise<string>;

/** A router: a function, or a classifier agent whose answer names an entry point. */
export type EntryRouter = RouteFunction | SdkAgent<any, any>;

/** The router's choice. */
export interface RouteDecision {
  agent: string;
  by: 'function' | 'agent';
  /** Model usage of a classifier agent (zero for a function). */
  usage: Usage;
}

/** Runs the router and checks that its choice is an entry point. */
export async function route(
  router: EntryRouter,
  request: RouteRequest,
  runner: Runner,
  signal?: AbortSignal,
): Promise<RouteDecision> {
  const names = request.entryPoints.map((entry) => entry.name);
  if (typeof router === 'function') {
    const choice = await router(request);
    if (!names.includes(choice)) {
      throw new AgencyConfigError(
        `The router chose "${choice}", which is not an entry point. Entry points: ${names.join(', ')}.`,
      );
    }
    return {
      agent: choice,
      by: 'function',
      usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
  }
  const listing = request.entryPoints
    .map((e) => `- ${e.name}${e.description ? `: ${e.description}` : ''}`)
    .join('\n');
  const classifier = router.clone({
    instructions: async (runContext: RunContext<any>, self: SdkAgent<any, any>) => {
      const own =
        typeof router.instructions === 'function'
          ? await router.instructions(runContext, self)
          : router.instructions;
      return `${own}\n\nAnswer with exactly one of these names and nothing else:\n${listing}`.trim();
    },
  });
  const context = new RunContext(request.context);
  const result = await runner.run(classifier, request.message, {
    context,
    ...(signal ? { signal } : {}),
  });
  const answer = String(result.finalOutput ?? '').trim();
  const chosen =
    names.find((name) => name === answer) ??
    names.find((name) => name.toLowerCase() === answer.toLowerCase()) ??
    names.find((name) =>
      new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(answer),
    );
  if (!chosen) {
    throw new AgencyConfigError(
      `The router agent "${router.name}" answered "${answer.slice(0, 80)}", which names no entry point. Entry points: ${names.join(', ')}.`,
    );
  }
  const { requests, inputTokens, outputTokens, totalTokens } = context.usage;
  return {
    agent: chosen,
    by: 'agent',
    usage: { requests, inputTokens, outputTokens, totalTokens },
  };
}

/** The entry points as a router sees them. */
export function describeEntryPoints(
  agents: ReadonlyMap<string, SdkAgent<any, any>>,
  entryPoints: readonly string[],
) {
  return entryPoints.map((name) => ({ name, description: describeAgent(agents.get(name)!) }));
}
