/**
 * One agent execution inside a step: builds its input, runs the script or the LLM, asks the
 * input handler the agent's questions, and returns the outcome to checkpoint.
 * @module
 */
import type { AgentModel } from './agentModels.js';
import type { WorkflowThread } from './workflowThread.js';
import type { InputHandler } from './inputHandlers.js';
import { runLlmAgent } from './llmAgent.js';
import type { EnsembleAgent } from './schema.js';
import { AgentRunError, runScriptAgent } from './scriptAgent.js';
import type {
  AnsweredRequest,
  ConversationState,
  ConversationTurn,
  EnsembleUsage,
} from './state.js';
import { latestOutputs } from './state.js';

/** What an agent is given: the task and the latest output of each dependency that has one. */
export interface AgentInput {
  input: string;
  context: Record<string, unknown>;
}

/** A finished agent execution, as checkpointed before its step commits: a turn without its place. */
export type AgentOutcome = Omit<ConversationTurn, 'turn_number' | 'agent_name' | 'input_data'>;

/** Everything {@link executeAgent} needs. */
export interface ExecuteAgentOptions {
  agent: EnsembleAgent;
  input: AgentInput;
  state: ConversationState;
  workflow: WorkflowThread;
  baseDir: string;
  signal: AbortSignal;
  /** Milliseconds left before the run's timeout. */
  remainingMs: number;
  inputHandler?: InputHandler;
  model?: () => Promise<AgentModel>;
}

/** The input of an agent from the committed state. */
export function agentInput(
  agent: EnsembleAgent,
  task: string,
  state: ConversationState,
): AgentInput {
  const outputs = latestOutputs(state);
  const context: Record<string, unknown> = {};
  for (const dep of agent.depends_on) {
    if (outputs[dep.agent_name] !== undefined) context[dep.agent_name] = outputs[dep.agent_name];
  }
  return { input: task, context };
}

function priorRequests(agent: string, state: ConversationState): number {
  return state.conversation_history
    .filter((turn) => turn.agent_name === agent)
    .reduce((sum, turn) => sum + (turn.input_requests?.length ?? 0), 0);
}

/** Runs one agent once. Rejects with AgentRunError when the agent fails. */
export async function executeAgent(options: ExecuteAgentOptions): Promise<AgentOutcome> {
  const { agent, state, input } = options;
  const started = performance.now();
  const timestamp = new Date().toISOString();
  const timeoutMs = Math.max(
    1,
    Math.floor(Math.min(options.remainingMs, (agent.timeout_seconds ?? Infinity) * 1000)),
  );
  const requests: AnsweredRequest[] = [];
  let index = priorRequests(agent.name, state);
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
  let output: Record<string, unknown>;
  let stderr: string | undefined;
  let usage: EnsembleUsage | undefined;
  if (agent.kind === 'script') {
    const run = await runScriptAgent({
      agent: agent.name,
      command: agent.script!,
      baseDir: options.baseDir,
      stdin: {
        ...input,
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
    });
    output = { ...(run.reply.data ?? {}) };
    stderr = run.stderr || undefined;
    for (const request of run.reply.agent_requests ?? []) {
      const key = request.key ?? 'user_input';
      output[key] = await ask(String(request.prompt), key);
    }
  } else {
    const { model, profile, settings } = await options.model!();
    const run = await runLlmAgent({
      agent,
      model,
      profile,
      settings,
      workflow: options.workflow,
      input,
      signal: options.signal,
      timeoutMs,
      ask: options.inputHandler ? (prompt) => ask(prompt) : undefined,
    });
    output = run.data;
    usage = run.usage;
  }
  return {
    output_data: output,
    execution_time: Math.round(performance.now() - started) / 1000,
    timestamp,
    ...(stderr ? { stderr } : {}),
    ...(usage ? { usage } : {}),
    ...(requests.length ? { input_requests: requests } : {}),
  };
}
