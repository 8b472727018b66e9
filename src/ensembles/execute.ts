/**
 * One agent execution inside a step: runs the script, the LLM, the sub-ensemble or the loop
 * (once per item for `fan_out`), asks the input handler the agent's questions, and returns the
 * outcome to checkpoint. An agent's own failure (non-zero exit, `success: false`, a model error,
 * its timeout, a bad reply) is an outcome with `status: 'failed'`, not an exception: the run
 * decides (`on_failure`) whether to go on.
 * @module
 */
import type { ColloquyRuntime } from '../runtime.js';
import { DEFAULT_ENSEMBLE_CONCURRENCY } from '../defaults.js';
import type { RunMemory } from '../memory/ensembleMemory.js';
import pLimit from 'p-limit';
import type { AgentModel } from './agentModels.js';
import { parseAgentRequests } from './agentRequests.js';
import { ConditionError } from './conditions.js';
import { fanOutItems, fanOutThread } from './inputs.js';
import type { InputHandler } from './inputHandlers.js';
import type { PromptFormatter } from './llmAgent.js';
import type { AgentInput, AgentOutcome, AgentRequest } from './runState.js';
import type { Ensemble, EnsembleAgent } from './schema.js';
import { AgentRunError, runScriptAgent } from './scriptAgent.js';
import type { AnsweredRequest, ConversationState } from './state.js';
import { addUsage, emptyUsage, type Usage } from '../usage.js';
import { toLlmOrcUsage } from './llmOrcUsage.js';
import type { WorkflowThread } from './workflowThread.js';

export { agentInput } from './inputs.js';
export type { AgentInput, AgentOutcome };

/** Runs an `ensemble:`, `loop:` or `dispatch:` agent (given by the run, which knows how to run ensembles). */
export type ChildRunner = (options: {
  agent: EnsembleAgent;
  input: AgentInput;
  /** Distinguishes runs of the same agent (its execution number, and fan-out index). */
  instance: string;
  signal: AbortSignal;
  /** The committed state (a dispatch input saved before targets were recorded resolves on it). */
  state?: ConversationState;
}) => Promise<{ output: Record<string, unknown>; usage?: Usage; failed?: string }>;

/** Everything {@link executeAgent} needs. */
export interface ExecuteAgentOptions {
  agent: EnsembleAgent;
  ensemble: Ensemble;
  input: AgentInput;
  state: ConversationState;
  workflow: WorkflowThread;
  baseDir: string;
  signal: AbortSignal;
  /** Milliseconds left before the run's timeout. */
  remainingMs: number;
  inputHandler?: InputHandler;
  model?: () => Promise<AgentModel>;
  /** The prompt of LLM agents (default: Colloquy's, see `llmPrompt`). */
  formatPrompt?: PromptFormatter;
  /** The run's memory, for LLM agents. */
  memory?: RunMemory;
  runChild?: ChildRunner;
  /** Fan-out instances run at once (default 8). */
  concurrency?: number;
  /** The runtime whose spawn helper starts scripts (default: the default runtime). */
  runtime?: ColloquyRuntime;
}

/** What one run of an agent produced, before timing is added. */
interface Produced {
  output: Record<string, unknown>;
  stderr?: string;
  usage?: Usage;
  agentRequests?: AgentRequest[];
  failed?: string;
}

/** Whether an error is the agent's own failure (recorded) rather than the run's (thrown). */
function isAgentFailure(
  error: unknown,
): error is Error & { stderr?: string; output?: Record<string, unknown> } {
  return error instanceof AgentRunError || error instanceof ConditionError;
}

/** Runs one agent once. Never rejects for the agent's own failure; see the module comment. */
export async function executeAgent(options: ExecuteAgentOptions): Promise<AgentOutcome> {
  const { agent, input } = options;
  const started = performance.now();
  const timestamp = new Date().toISOString();
  const requests: AnsweredRequest[] = [];
  let produced: Produced;
  try {
    if (input.input_error) throw new AgentRunError(agent.name, input.input_error);
    produced = agent.fan_out
      ? await runFanOut(options, requests)
      : await runOnce(options, input, agent.name, requests);
  } catch (error) {
    if (!isAgentFailure(error)) throw error;
    produced = {
      // What a failing script printed (llm-orc's `{"success": false, "error": ...}`) is kept.
      output: error.output ?? {},
      failed: error.message,
      ...(error.stderr ? { stderr: error.stderr } : {}),
    };
  }
  return {
    output_data: produced.output,
    execution_time: Math.round(performance.now() - started) / 1000,
    timestamp,
    ...(produced.failed !== undefined ? { status: 'failed' as const, error: produced.failed } : {}),
    ...(produced.stderr ? { stderr: produced.stderr } : {}),
    ...(produced.usage ? { usage: toLlmOrcUsage(produced.usage) } : {}),
    ...(requests.length ? { input_requests: requests } : {}),
    ...(produced.agentRequests?.length ? { agent_requests: produced.agentRequests } : {}),
  };
}

/** Runs a fan_out agent once per item of its upstream array, in parallel; gathers in order. */
async function runFanOut(
  options: ExecuteAgentOptions,
  requests: AnsweredRequest[],
): Promise<Produced> {
  const { agent, input } = options;
  const items = fanOutItems(agent, options.state);
  if (!Array.isArray(items)) throw new AgentRunError(agent.name, items.error);
  const limit = pLimit(Math.max(1, options.concurrency ?? DEFAULT_ENSEMBLE_CONCURRENCY));
  const runs = await Promise.all(
    items.map((item, index) =>
      limit(async () => {
        const text = typeof item === 'string' ? item : JSON.stringify(item);
        const instance: AgentInput = {
          ...input,
          input: text,
          fan_out: { index, total: items.length, item },
        };
        try {
          return await runOnce(options, instance, fanOutThread(agent.name, index), requests);
        } catch (error) {
          if (!isAgentFailure(error)) throw error;
          return { output: {}, failed: error.message } satisfies Produced;
        }
      }),
    ),
  );
  const errors = runs.flatMap((run, index) =>
    run.failed !== undefined ? [{ index, error: run.failed }] : [],
  );
  const counted = runs.filter((run) => run.usage);
  const usage = counted.length ? emptyUsage() : undefined;
  for (const run of counted) addUsage(usage!, run.usage!);
  return {
    output: {
      results: runs.map((run) => (run.failed !== undefined ? null : run.output)),
      total: items.length,
      ...(errors.length ? { errors } : {}),
    },
    ...(usage ? { usage } : {}),
    ...(items.length > 0 && errors.length === items.length
      ? { failed: `every one of its ${items.length} fan-out instances failed: ${errors[0]!.error}` }
      : {}),
  };
}

/** Runs the agent once with `input`; `thread` is its sub-thread (per fan-out instance). */
async function runOnce(
  options: ExecuteAgentOptions,
  input: AgentInput,
  thread: string,
  requests: AnsweredRequest[],
): Promise<Produced> {
  const { agent, state } = options;
  const timeoutMs = Math.max(
    1,
    Math.floor(Math.min(options.remainingMs, (agent.timeout_seconds ?? Infinity) * 1000)),
  );
  let index = state.input_requests[agent.name] ?? 0;
  const ask = async (prompt: string, key = 'user_input'): Promise<string> => {
    if (!options.inputHandler) {
      throw new AgentRunError(
        agent.name,
        `it asked for user input ("${prompt}") but the run has no input handler. Pass --inputs answers.yaml, run on a TTY, or give runEnsemble an inputHandler.`,
      );
    }
    const answer = await options.inputHandler.answer({
      agent: agent.name,
      prompt,
      index: index++,
      state,
    });
    requests.push({ prompt, key, answer });
    return answer;
  };
  if (agent.kind === 'ensemble' || agent.kind === 'loop' || agent.kind === 'dispatch') {
    if (!options.runChild)
      throw new AgentRunError(agent.name, 'sub-ensembles need runEnsemble to run them.');
    const instance = `${(state.agent_execution_count[agent.name] ?? 0) + 1}${thread === agent.name ? '' : thread.slice(agent.name.length)}`;
    return runChildWithin(options, { agent, input, instance }, timeoutMs);
  }
  if (agent.kind === 'script') {
    const run = await runScriptAgent({
      agent: agent.name,
      command: agent.script!,
      baseDir: options.baseDir,
      stdin: {
        ...input,
        // A fan-out instance's input is its item; llm-orc's base_input is the agent's own.
        ...(input.fan_out ? { base_input: options.input.input } : {}),
        agent: agent.name,
        config: agent.config ?? {},
        conversation_state: {
          turn_count: state.turn_count,
          agent_execution_count: state.agent_execution_count,
          accumulated_context: state.accumulated_context,
        },
      },
      timeoutMs,
      signal: options.signal,
      ...(options.inputHandler ? { ask: (prompt: string) => ask(prompt) } : {}),
      ...(options.runtime ? { runtime: options.runtime } : {}),
    });
    const output: Record<string, unknown> = { ...(run.reply.data ?? {}) };
    const parsed = parseAgentRequests(options.ensemble, run.reply.agent_requests);
    if (parsed.error)
      throw new AgentRunError(agent.name, parsed.error, { stderr: run.stderr || undefined });
    for (const request of parsed.inputs)
      output[request.key] = await ask(request.prompt, request.key);
    return {
      output,
      ...(run.stderr ? { stderr: run.stderr } : {}),
      ...(parsed.agents.length ? { agentRequests: parsed.agents } : {}),
    };
  }
  const { model, profile, settings } = await options.model!();
  // The LLM runner (and with it the SDK) loads only when an LLM agent runs.
  const { runLlmAgent } = await import('./llmAgent.js');
  const run = await runLlmAgent({
    agent,
    model,
    profile,
    settings,
    workflow: options.workflow,
    thread,
    input,
    formatPrompt: options.formatPrompt,
    memory: options.memory,
    baseDir: options.baseDir,
    signal: options.signal,
    timeoutMs,
    ask: options.inputHandler ? (prompt) => ask(prompt) : undefined,
  });
  return { output: run.data, usage: run.usage };
}

/**
 * Runs a sub-ensemble or loop agent; with its own `timeout_seconds`, the child run is stopped
 * at that time (left unfinished in the store) and the agent fails with a timeout, like any
 * other agent. The run's own deadline stops it through the step's signal instead.
 */
async function runChildWithin(
  options: ExecuteAgentOptions,
  child: { agent: EnsembleAgent; input: AgentInput; instance: string },
  timeoutMs: number,
): Promise<Produced> {
  const { agent } = child;
  const own =
    agent.timeout_seconds !== undefined && timeoutMs < options.remainingMs
      ? AbortSignal.timeout(timeoutMs)
      : undefined;
  const signal = own ? AbortSignal.any([options.signal, own]) : options.signal;
  try {
    return await options.runChild!({ ...child, signal, state: options.state });
  } catch (error) {
    if (own?.aborted && !options.signal.aborted)
      throw new AgentRunError(
        agent.name,
        `it did not finish within its timeout_seconds (${agent.timeout_seconds}s); its ` +
          `${agent.kind === 'loop' ? 'loop body' : agent.kind === 'dispatch' ? 'dispatched ensemble' : 'sub-ensemble'} run was stopped. Raise timeout_seconds, or make the child faster.`,
        { cause: error },
      );
    throw error;
  }
}
