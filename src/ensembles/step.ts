/**
 * One step of a run: prepare it (which agents run, with which inputs, which are skipped by a
 * guard), run its unfinished agents in parallel, and record it (turns in file order, the
 * scheduler's book, agent requests). Every finished agent is checkpointed at once when others
 * are still running, so that a resumed run re-runs only unfinished agents. The run saves a
 * step's turns together with the next step's plan, in one write.
 * @module
 */
import type { ColloquyRuntime } from '../runtime.js';
import type { RunMemory } from '../memory/ensembleMemory.js';
import path from 'node:path';
import type { LimitFunction } from 'p-limit';
import { fileAgentRequests } from './agentRequests.js';
import type { AgentModels } from './agentModels.js';
import type { RunCheckpoints } from './checkpoint.js';
import { ConditionError } from './conditions.js';
import type { ConditionContext } from './conditions.js';
import type { EnsembleEvent } from './events.js';
import type { ChildRunner } from './execute.js';
import { agentInput, executeAgent } from './execute.js';
import { fanOutItems, fanOutThread } from './inputs.js';
import { dependenciesSkipped, guardAllows } from './guards.js';
import type { InputHandler } from './inputHandlers.js';
import type { PromptFormatter } from './llmAgent.js';
import type {
  AgentOutcome,
  ConversationTurn,
  EnsembleRunFailure,
  OpenStep,
  StepInput,
} from './runState.js';
import { conditionContext, markStarted } from './scheduler.js';
import type { Ensemble, EnsembleAgent } from './schema.js';
import type { ConversationState } from './state.js';
import { recordTurn } from './state.js';

/** What a step needs from its run. */
export interface StepContext {
  ensemble: Ensemble;
  checkpoints: RunCheckpoints;
  /** The committed conversation (updated by {@link commitStep}). */
  conversation: ConversationState;
  models: AgentModels;
  limit: LimitFunction;
  /** `performance.now()` at which the run times out. */
  deadline: number;
  emit: (event: EnsembleEvent) => void;
  signal?: AbortSignal;
  inputHandler?: InputHandler;
  formatPrompt?: PromptFormatter;
  /** The run's memory (ensemble `memory:` and a `userId`), if any. */
  memory?: RunMemory | undefined;
  runChild?: ChildRunner;
  /** The runtime whose spawn helper starts scripts (default: the default runtime). */
  runtime?: ColloquyRuntime | undefined;
}

function agentNamed(ensemble: Ensemble, name: string): EnsembleAgent {
  const agent = ensemble.agents.find((candidate) => candidate.name === name);
  if (!agent) throw new Error(`Agent "${name}" is not in ensemble "${ensemble.name}".`);
  return agent;
}

/** An outcome that did not run: skipped by its guard, or failed evaluating it. */
function notRun(status: 'skipped' | 'failed', error: string): AgentOutcome {
  return {
    output_data: {},
    execution_time: 0,
    timestamp: new Date().toISOString(),
    status,
    error,
  };
}

/**
 * Prepares the next step for `agents` in the working head (not saved): their inputs, and the
 * outcomes of agents a guard skips.
 */
export async function prepareStep(context: StepContext, agents: string[]): Promise<OpenStep> {
  const { ensemble, conversation, checkpoints } = context;
  const step: OpenStep = {
    step: checkpoints.head.execution.step + 1,
    agents,
    finished: {},
    inputs: {},
  };
  let cached: ConditionContext | undefined;
  const conditions = () => (cached ??= conditionContext(conversation));
  for (const name of agents) {
    const agent = agentNamed(ensemble, name);
    step.inputs[name] = {
      input_data: agentInput(agent, checkpoints.data.input, conversation, checkpoints.data.book),
      thread_version: agent.kind === 'llm' ? await checkpoints.workflow.version(name) : 0,
      ...(agent.kind === 'llm' && agent.fan_out
        ? { fan_out_versions: await fanOutVersions(context, agent) }
        : {}),
    };
    if (dependenciesSkipped(agent, conversation)) {
      step.finished[name] = notRun('skipped', 'every dependency was skipped');
      continue;
    }
    try {
      if (!guardAllows(agent, conversation, conditions))
        step.finished[name] = notRun('skipped', `its guard "when: ${agent.when}" is false`);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      step.finished[name] = notRun(
        'failed',
        `its guard "when: ${agent.when}" failed: ${error.message}`,
      );
    }
  }
  checkpoints.head.execution.currentStep = step;
  return step;
}

/**
 * The sub-thread versions of an LLM fan_out agent's instances now (one per item it will run
 * over; the items come from the committed state, as when it runs).
 */
async function fanOutVersions(context: StepContext, agent: EnsembleAgent): Promise<number[]> {
  const items = fanOutItems(agent, context.conversation);
  if (!Array.isArray(items)) return [];
  const versions: number[] = [];
  for (let index = 0; index < items.length; index++)
    versions.push(await context.checkpoints.workflow.version(fanOutThread(agent.name, index)));
  return versions;
}

/**
 * An LLM agent's sub-threads back to where they were when the step started: items an
 * interrupted run of this step wrote (its own, and each fan_out instance's) are cut, so that
 * running it again does not repeat them.
 */
async function cutSubThreads(context: StepContext, name: string, input: StepInput): Promise<void> {
  const { workflow } = context.checkpoints;
  await workflow.truncate(name, input.thread_version);
  const versions = input.fan_out_versions ?? [];
  for (let index = 0; index < versions.length; index++)
    await workflow.truncate(fanOutThread(name, index), versions[index]!);
}

/**
 * Runs the step's unfinished agents. Resolves when all have finished or the run stopped
 * (deadline or the caller's signal); returns whether the deadline stopped it.
 */
export async function runStep(
  context: StepContext,
  step: OpenStep,
): Promise<{ timedOut: boolean }> {
  const { ensemble, checkpoints, conversation, emit } = context;
  emit({
    type: 'step_started',
    step: step.step,
    agents: step.agents,
    turn_count: conversation.turn_count,
  });
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (context.signal?.aborted) controller.abort();
  else context.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(),
    Math.min(2 ** 31 - 1, Math.max(0, context.deadline - performance.now())),
  );
  const pending = step.agents.filter((name) => !(name in step.finished));
  const baseDir = path.resolve(ensemble.baseDir ?? process.cwd());
  try {
    await Promise.all(
      pending.map((name) =>
        context.limit(async () => {
          if (controller.signal.aborted) return;
          const agent = agentNamed(ensemble, name);
          const input = step.inputs[name]!;
          if (agent.kind === 'llm') await cutSubThreads(context, name, input);
          emit({ type: 'agent_started', step: step.step, agent: name });
          const outcome = await executeAgent({
            agent,
            ensemble,
            input: input.input_data,
            state: conversation,
            workflow: checkpoints.workflow,
            baseDir,
            signal: controller.signal,
            remainingMs: context.deadline - performance.now(),
            inputHandler: context.inputHandler,
            model: () => context.models.get(name),
            formatPrompt: context.formatPrompt,
            ...(context.memory ? { memory: context.memory } : {}),
            runChild: context.runChild,
            ...(context.runtime ? { runtime: context.runtime } : {}),
          });
          // Stopped by the run (deadline, cancellation), not by its own failure: not recorded.
          if (controller.signal.aborted && outcome.status === 'failed') return;
          step.finished[name] = outcome;
          // With other agents still running, checkpoint now; the last one is saved by the commit.
          if (pending.length > 1) await checkpoints.save(`agent-${name}`, false);
          emit({
            type: 'agent_finished',
            step: step.step,
            agent: name,
            success: outcome.status === undefined,
            execution_time: outcome.execution_time,
            ...(outcome.error ? { error: outcome.error } : {}),
          });
        }),
      ),
    );
  } finally {
    clearTimeout(timer);
    context.signal?.removeEventListener('abort', onAbort);
  }
  await checkpoints.flush();
  return { timedOut: controller.signal.aborted && !context.signal?.aborted };
}

/**
 * Records the step in the conversation and the working head (not saved): marks dependencies
 * consumed, records its finished agents' turns in file order and files their agent requests.
 * Returns the turns, and the first failure of an agent whose `on_failure` is `stop`, if any.
 */
export function recordStep(
  context: StepContext,
  step: OpenStep,
): { turns: ConversationTurn[]; stop?: EnsembleRunFailure } {
  const { ensemble, checkpoints, conversation } = context;
  const book = checkpoints.data.book;
  const before = {
    ...conversation,
    agent_execution_count: { ...conversation.agent_execution_count },
  };
  for (const name of step.agents)
    if (step.finished[name]) markStarted(ensemble, name, before, book);
  const turns: ConversationTurn[] = [];
  let stop: EnsembleRunFailure | undefined;
  for (const name of step.agents) {
    const outcome = step.finished[name];
    if (!outcome) continue;
    const agent = agentNamed(ensemble, name);
    recordTurn(
      conversation,
      { agent_name: name, input_data: step.inputs[name]!.input_data, ...outcome },
      agent.conversation.state_key,
    );
    turns.push(conversation.conversation_history.at(-1)!);
    if (outcome.agent_requests) fileAgentRequests(book, name, outcome.agent_requests);
    if (outcome.status === 'failed' && agent.on_failure === 'stop' && !stop)
      stop = {
        agent: name,
        message: outcome.error ?? 'failed',
        ...(outcome.stderr ? { stderr: outcome.stderr } : {}),
      };
  }
  // The head shares the committed conversation's bounded fields (no copy here: every save
  // snapshots the head, and the conversation changes only in the next recordStep).
  const { conversation_history: _history, ...head } = conversation;
  Object.assign(checkpoints.head, {
    conversation: head,
    execution: { step: step.step, currentStep: null },
  });
  return { turns, ...(stop ? { stop } : {}) };
}
