/**
 * LLM agents of an ensemble: an SDK `Agent` built from the agent's model profile, run through
 * the SDK `Runner`. Each agent keeps its own sub-thread of the run's WorkflowThread, so that a
 * re-triggered agent sees its earlier turns. A `system_prompt` naming a `.md` file is read from
 * the ensemble file's folder, whatever the current directory.
 * @module
 */
import type { RunMemory } from '../memory/ensembleMemory.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Agent, Runner, tool, withTraceContext } from '@openai/agents-core';
import type { AgentInputItem, Model, ModelSettings } from '@openai/agents-core';
import { z } from 'zod';
import type { ModelProfile } from '../models/profile.js';
import { PriorInputModel } from '../models/priorInputModel.js';
import { tracedModel } from '../models/tracedModel.js';
import type { WorkflowThread } from './workflowThread.js';
import type { ThreadItem } from '../stores/item.js';
import { AgentRunError } from './scriptAgent.js';
import type { EnsembleAgent } from './schema.js';
import type { AgentInput } from './runState.js';
import type { Usage } from '../usage.js';
import { agentTraceContext } from './tracing.js';

/**
 * Runners shared by every LLM agent of every run (they keep no state between runs): the traced
 * one runs inside the ensemble's trace (see `tracing.ts`), the other when the run is not traced,
 * so that an untraced run never opens a trace of its own per agent call.
 */
const tracedRunner = new Runner();
const untracedRunner = new Runner({ tracingDisabled: true });

/** Options of {@link runLlmAgent}. */
export interface LlmAgentOptions {
  agent: EnsembleAgent;
  model: Model;
  profile?: ModelProfile;
  /** Call settings from the profile (retries, temperature, max tokens). */
  settings?: ModelSettings;
  workflow: WorkflowThread;
  /** The sub-thread the agent's conversation lives in (default: its name). */
  thread?: string;
  /** The task and the dependencies' outputs. */
  input: AgentInput;
  /** Builds the user message from the input (default {@link llmPrompt}). */
  formatPrompt?: PromptFormatter;
  /** The folder files named in the ensemble resolve from (default: the current directory). */
  baseDir?: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Answers the `request_user_input` tool; without it the tool is not offered. */
  ask?: (prompt: string) => Promise<string>;
  /** The run's memory (recall block, working memory), when the ensemble has one. */
  memory?: RunMemory | undefined;
}

/** What an LLM agent produced. */
export interface LlmAgentRun {
  data: Record<string, unknown>;
  usage: Usage;
}

/**
 * Builds an LLM agent's user message from its input. This is the seam for other prompt formats
 * (llm-orc's dependent-prompt format): pass one as `formatPrompt` of runEnsemble.
 */
export type PromptFormatter = (input: AgentInput, agent: EnsembleAgent) => string;

/** The message an LLM agent receives for one turn (Colloquy's format). */
export function llmPrompt(input: AgentInput): string {
  const context = Object.keys(input.context).length
    ? `\n\nOutputs of the agents you depend on (JSON):\n${JSON.stringify(input.context, null, 2)}`
    : '';
  const failed = input.failed
    ? `\n\nThese agents you depend on failed:\n${JSON.stringify(input.failed, null, 2)}`
    : '';
  const requests = input.requests
    ? `\n\nRequests from other agents (JSON):\n${JSON.stringify(input.requests, null, 2)}`
    : '';
  return `Task: ${input.input}${context}${failed}${requests}`;
}

/**
 * The system prompt text: a one-line value ending in `.md` that names a file (relative to
 * `baseDir`, the ensemble's folder) is read from it; other text is used as is.
 */
export function readSystemPrompt(value: string, agentName: string, baseDir: string): string {
  const trimmed = value.trim();
  if (!/\.md$/i.test(trimmed) || trimmed.includes('\n')) return value;
  const file = path.resolve(baseDir, trimmed);
  if (/\s/.test(trimmed) && !existsSync(file)) return value;
  try {
    if (!statSync(file).isFile()) throw new Error('not a regular file');
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AgentRunError(
      agentName,
      `its system_prompt file "${value}" could not be read (looked at ${file}: ${(error as Error).message}). ` +
        "Create it, or fix the path: it is relative to the ensemble file's folder.",
      { cause: error },
    );
  }
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
 * Runs one turn of an LLM agent and stages the turn's items in its sub-thread (the run's next
 * save or commit writes them).
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
  const baseDir = options.baseDir ?? process.cwd();
  const thread = options.thread ?? agent.name;
  // The sub-thread's earlier items go to the model, not through the Runner (see PriorInputModel):
  // the run's input is this turn's message alone, so a turn costs the same at any length. A copy
  // of references, taken now: the cached view grows when a parallel turn stages its items.
  const prior = (await workflow.inputs(thread)).slice();
  const message: AgentInputItem = {
    role: 'user',
    content: (options.formatPrompt ?? llmPrompt)(options.input, agent),
  };
  const remembered = await options.memory?.forTurn(options.input.input);
  const instructions = readSystemPrompt(
    agent.system_prompt ??
      profile?.system_prompt ??
      'You are one agent of a team. Do the task with the context given.',
    agent.name,
    baseDir,
  );
  const sdkAgent = new Agent({
    name: agent.name,
    instructions: remembered?.instructions
      ? `${instructions}\n\n${remembered.instructions}`
      : instructions,
    // Scripted, replay and profile models open no model-call spans themselves: wrap them.
    model: new PriorInputModel(tracedModel(options.model), prior),
    modelSettings: options.settings ?? {
      temperature: profile?.temperature,
      maxTokens: profile?.max_tokens,
    },
    tools: [...tools, ...(remembered?.tools ?? [])],
  });
  const count = prior.length;
  // A recall block is model input only: it is not staged with the turn.
  const input: AgentInputItem[] = remembered?.recall ? [remembered.recall, message] : [message];
  // A timer cleared when the call ends (AbortSignal.timeout's would stay pending for the whole
  // timeout, one more each turn).
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), Math.min(options.timeoutMs, 2 ** 31 - 1));
  const signal = AbortSignal.any([options.signal, timeout.signal]);
  const context = agentTraceContext(workflow.runId, agent.name);
  let result;
  try {
    result = context
      ? await withTraceContext(context, () =>
          tracedRunner.run(sdkAgent, input, { signal, maxTurns: 20 }),
        )
      : await untracedRunner.run(sdkAgent, input, { signal, maxTurns: 20 });
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
  } finally {
    clearTimeout(timer);
  }
  const createdAt = new Date().toISOString();
  // This turn's items: the user message and what the run produced (`result.history` would
  // rebuild the whole conversation, a cost that grows with it).
  const turnItems: AgentInputItem[] = [message, ...result.output];
  const items: ThreadItem[] = turnItems.map((item, i) => ({
    id: `${agent.name}-${count + i}`,
    item,
    meta: {
      agent: agent.name,
      callerAgent: null,
      runId: workflow.runId,
      parentRunId: null,
      createdAt,
    },
  }));
  // Written with the step's checkpoint (or commit), in the same transaction as the head.
  if (items.length) await workflow.stage(thread, items);
  const answer = String(result.finalOutput ?? '');
  options.memory?.note(agent.name, [
    { id: items[0]!.id, role: 'user', text: options.input.input },
    { id: items.at(-1)!.id, role: 'assistant', text: answer },
  ]);
  const usage = result.runContext.usage;
  return {
    data: parseLlmOutput(String(result.finalOutput ?? '')),
    usage: {
      requests: usage.requests,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
    },
  };
}
