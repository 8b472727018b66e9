/**
 * LLM agents of an ensemble: a Colloquy `Agent` built from the agent's model profile, run through
 * the SDK `Runner`. Each agent keeps its own sub-thread of the run's WorkflowThread, so that a
 * re-triggered agent sees its earlier turns.
 * @module
 */
import { Runner, tool } from '@openai/agents-core';
import type { AgentInputItem, Model, ModelSettings } from '@openai/agents-core';
import { z } from 'zod';
import { Agent } from '../agency/agent.js';
import type { ModelProfile } from '../models/profile.js';
import type { WorkflowThread } from './workflowThread.js';
import type { ThreadItem } from '../stores/item.js';
import { AgentRunError } from './scriptAgent.js';
import type { EnsembleAgent } from './schema.js';
import type { EnsembleUsage } from './state.js';

/** Options of {@link runLlmAgent}. */
export interface LlmAgentOptions {
  agent: EnsembleAgent;
  model: Model;
  profile?: ModelProfile;
  /** Call settings from the profile (retries, temperature, max tokens). */
  settings?: ModelSettings;
  workflow: WorkflowThread;
  /** The task and the dependencies' outputs. */
  input: { input: string; context: Record<string, unknown> };
  signal: AbortSignal;
  timeoutMs: number;
  /** Answers the `request_user_input` tool; without it the tool is not offered. */
  ask?: (prompt: string) => Promise<string>;
}

/** What an LLM agent produced. */
export interface LlmAgentRun {
  data: Record<string, unknown>;
  usage: EnsembleUsage;
}

/** The message an LLM agent receives for one turn. */
export function llmPrompt(input: { input: string; context: Record<string, unknown> }): string {
  const context = Object.keys(input.context).length
    ? `\n\nOutputs of the agents you depend on (JSON):\n${JSON.stringify(input.context, null, 2)}`
    : '';
  return `Task: ${input.input}${context}`;
}

/** Parses a reply: a JSON object (optionally in a ```json fence) is the data; other text is `{ response }`. */
export function parseLlmOutput(text: string): Record<string, unknown> {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text.trim());
  const candidate = (fenced?.[1] ?? text).trim();
  if (candidate.startsWith('{')) {
    try {
      const value = JSON.parse(candidate) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  return { response: text };
}

/**
 * Runs one turn of an LLM agent and appends the turn's items to its sub-thread.
 *
 * @example
 * ```ts
 * const { data, usage } = await runLlmAgent({ agent, model, workflow, input: { input: 'task', context: {} }, signal, timeoutMs: 60_000 });
 * ```
 */
export async function runLlmAgent(options: LlmAgentOptions): Promise<LlmAgentRun> {
  const { agent, profile, workflow } = options;
  const tools = options.ask
    ? [
        tool({
          name: 'request_user_input',
          description: 'Ask the user a question and wait for the answer.',
          parameters: z.object({ prompt: z.string().describe('The question for the user') }),
          execute: async ({ prompt }) => options.ask!(prompt),
        }),
      ]
    : [];
  const sdkAgent = new Agent({
    name: agent.name,
    instructions:
      agent.system_prompt ??
      profile?.system_prompt ??
      'You are one agent of a team. Do the task with the context given.',
    model: options.model,
    modelSettings: options.settings ?? {
      temperature: profile?.temperature,
      maxTokens: profile?.max_tokens,
    },
    tools,
  });
  const prior = await workflow.read(agent.name);
  const input: AgentInputItem[] = [
    ...prior.map((entry) => entry.item),
    { role: 'user', content: llmPrompt(options.input) },
  ];
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let result;
  try {
    result = await new Runner({ tracingDisabled: true }).run(sdkAgent, input, {
      signal,
      maxTurns: 20,
    });
  } catch (error) {
    const reason =
      signal.aborted && !options.signal.aborted
        ? `it did not finish within ${options.timeoutMs / 1000}s`
        : (error as Error).message;
    throw new AgentRunError(
      agent.name,
      `${reason}. Check the model profile "${agent.model_profile}" and its script or API settings.`,
      { cause: error },
    );
  }
  const createdAt = new Date().toISOString();
  const items: ThreadItem[] = result.history.slice(prior.length).map((item, i) => ({
    id: `${agent.name}-${prior.length + i}`,
    item,
    meta: {
      agent: agent.name,
      callerAgent: null,
      runId: workflow.runId,
      parentRunId: null,
      createdAt,
    },
  }));
  if (items.length) await workflow.append(agent.name, items);
  const usage = result.runContext.usage;
  return {
    data: parseLlmOutput(String(result.finalOutput ?? '')),
    usage: {
      requests: usage.requests,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      total_tokens: usage.totalTokens,
    },
  };
}
