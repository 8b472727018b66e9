/**
 * The Colloquy Agent: an `@openai/agents-core` Agent with a description that other agents see
 * in their send_message tool, and instructions that may live in a Markdown file.
 * @module
 */
import { Agent as SdkAgent } from '@openai/agents-core';
import type { AgentOptions as SdkAgentOptions, AgentOutputType, TextOutput } from '@openai/agents-core';
import { resolveInstructions } from './instructions.js';

/** Options of {@link Agent}: the SDK's agent options plus Colloquy's. */
export type AgentOptions<TContext = unknown, TOutput extends AgentOutputType = TextOutput> = Omit<
  SdkAgentOptions<TContext, TOutput>,
  'instructions'
> & {
  /** What this agent does, shown to agents that can message it. */
  description?: string;
  /**
   * The system prompt: text, a path to a `.md` file (read relative to the current directory), or
   * a function of the run context as in the SDK.
   */
  instructions?: SdkAgentOptions<TContext, TOutput>['instructions'];
};

/**
 * An agent. It is a real SDK `Agent`, so it can be run with the SDK's `Runner` directly too.
 *
 * @example
 * ```ts
 * const writer = new Agent({
 *   name: 'Writer',
 *   description: 'Writes short drafts.',
 *   instructions: './prompts/writer.md',
 *   model: new ScriptedModel(['A draft.']),
 * });
 * ```
 */
export class Agent<TContext = unknown, TOutput extends AgentOutputType = TextOutput> extends SdkAgent<
  TContext,
  TOutput
> {
  /** What this agent does, shown to agents that can message it. */
  readonly description: string;

  constructor(options: AgentOptions<TContext, TOutput>) {
    const instructions =
      typeof options.instructions === 'string'
        ? resolveInstructions(options.instructions, `Agent "${options.name}"`)
        : options.instructions;
    super({
      ...options,
      instructions: instructions ?? '',
      handoffDescription: options.handoffDescription ?? options.description ?? '',
    } as SdkAgentOptions<TContext, TOutput>);
    this.description = options.description ?? options.handoffDescription ?? '';
  }
}

/** The description of any SDK agent: ours, or the SDK's handoff description. */
export function describeAgent(agent: SdkAgent<any, any>): string {
  if (agent instanceof Agent) return agent.description;
  return agent.handoffDescription ?? '';
}
