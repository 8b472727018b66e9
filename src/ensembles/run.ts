/**
 * `runEnsemble`: runs an ensemble as a conversation of steps. Each step runs the agents the
 * scheduler found ready, in parallel up to `concurrency`; every finished agent is checkpointed
 * at once, and the step commits its turns in file order, so a resumed run (after a crash, even
 * SIGKILL) re-runs only unfinished agents and ends with the result an uninterrupted run gives.
 * @module
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pLimit from 'p-limit';
import { ColloquyError } from '../errors.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { MemoryStore } from '../stores/memory.js';
import type { ThreadStore } from '../stores/types.js';
import { WorkflowThread } from './workflowThread.js';
import type { WorkflowState, WorkflowStep } from './workflowThread.js';
import { AgentModels, defaultCreateModel } from './agentModels.js';
import type { CreateModel } from './agentModels.js';
import type { EnsembleEvent } from './events.js';
import { agentInput, executeAgent } from './execute.js';
import type { AgentInput, AgentOutcome } from './execute.js';
import type { InputHandler } from './inputHandlers.js';
import { buildResult } from './result.js';
import type { CompletionReason, ConversationResult, EnsembleRunFailure } from './result.js';
import type { Ensemble } from './schema.js';
import { createBook, markStarted, planStep, SchedulingError } from './scheduler.js';
import type { SchedulerBook } from './scheduler.js';
import { createConversationState, recordTurn } from './state.js';

/** Options of {@link runEnsemble}. Every field is optional. */
export interface RunEnsembleOptions {
  /** The task (default: the ensemble's `default_task`, else ''). Ignored on resume. */
  input?: string;
  /** Where the run is checkpointed (default: a new MemoryStore). */
  store?: ThreadStore;
  /** The run id (default: a random UUID). */
  runId?: string;
  /** Resume the run `runId` (or this id) from its last checkpoint. */
  resume?: boolean | string;
  /** Agents run at once within a step (default 8). */
  concurrency?: number;
  /** Answers agents' questions. */
  inputHandler?: InputHandler;
  /** Progress events. */
  onEvent?: (event: EnsembleEvent) => void;
  /** Profiles for LLM agents (default: loaded from the current directory). */
  profiles?: ProfileRegistry;
  /** Makes the model of a profile (default: `createModel` of the models module). */
  createModel?: CreateModel;
  /** Seeds `accumulated_context` of a new run. */
  initialContext?: Record<string, unknown>;
  /** Cancels the run: running agents are stopped and the run ends with `timeout`. */
  signal?: AbortSignal;
}

interface RunData {
  status: 'running' | 'finished';
  ensemble: string;
  input: string;
  book: SchedulerBook;
  elapsed_ms: number;
  result?: ConversationResult;
}

/** Model calls per agent recorded in a checkpoint: committed turns plus the current step's finished agents. */
function priorRequests(state: WorkflowState): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (agent: string, requests: number | undefined) =>
    (counts[agent] = (counts[agent] ?? 0) + (requests ?? 0));
  for (const turn of state.conversation.conversation_history)
    add(turn.agent_name, turn.usage?.requests);
  for (const [agent, outcome] of Object.entries(state.execution.currentStep?.finished ?? {}))
    add(agent, (outcome as AgentOutcome).usage?.requests);
  return counts;
}

interface StepInput {
  input_data: AgentInput;
  thread_version: number;
}

/**
 * Runs (or resumes) an ensemble and returns its {@link ConversationResult}.
 *
 * @example
 * ```ts
 * const ensemble = await loadEnsemble('examples/ensembles/iterative-analysis.yaml');
 * const store = new SqliteStore({ path: '.colloquy/colloquy.db' });
 * const result = await runEnsemble(ensemble, { input: 'Q3 sales', store, runId: 'run-1' });
 * console.log(result.completion_reason, result.turn_count);
 * // After a crash: continue where it stopped.
 * await runEnsemble(ensemble, { store, runId: 'run-1', resume: true });
 * ```
 */
export async function runEnsemble(
  ensemble: Ensemble,
  options: RunEnsembleOptions = {},
): Promise<ConversationResult> {
  const store = options.store ?? new MemoryStore();
  const runId =
    typeof options.resume === 'string' ? options.resume : (options.runId ?? randomUUID());
  const emit = options.onEvent ?? (() => undefined);
  let workflow: WorkflowThread;
  if (options.resume) {
    const loaded = await WorkflowThread.load(store, runId);
    if (!loaded)
      throw new ColloquyError(
        'ENSEMBLE_RUN_ERROR',
        `There is no run "${runId}" to resume in the ${store.kind} store. Check the run id and --store.`,
      );
    workflow = loaded;
  } else {
    const data: RunData = {
      status: 'running',
      ensemble: ensemble.name,
      input: options.input ?? ensemble.default_task ?? '',
      book: createBook(),
      elapsed_ms: 0,
    };
    workflow = await WorkflowThread.create(store, runId, {
      conversation: createConversationState(options.initialContext),
      data: { ...data },
    });
  }
  let saved = workflow.state;
  const data = () => saved.data as unknown as RunData;
  if (data().ensemble !== ensemble.name) {
    throw new ColloquyError(
      'ENSEMBLE_RUN_ERROR',
      `Run "${runId}" belongs to ensemble "${data().ensemble}", not "${ensemble.name}". Resume it with its own ensemble file.`,
    );
  }
  if (data().status === 'finished' && data().result) return data().result!;
  emit({
    type: 'ensemble_started',
    run_id: runId,
    ensemble: ensemble.name,
    resumed: Boolean(options.resume),
    turn_count: saved.conversation.turn_count,
  });

  const started = performance.now();
  const elapsedBefore = data().elapsed_ms;
  const deadline = started + ensemble.conversation_limits.timeout_seconds * 1000 - elapsedBefore;
  const models = new AgentModels(
    ensemble,
    options.profiles,
    options.createModel ?? defaultCreateModel,
    priorRequests(saved),
  );
  const baseDir = ensemble.baseDir ?? process.cwd();
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));
  let chain = Promise.resolve();
  const save = (next: WorkflowState, label: string): Promise<void> => {
    (next.data as unknown as RunData).elapsed_ms =
      elapsedBefore + Math.round(performance.now() - started);
    const copy = structuredClone(next);
    chain = chain.then(() => workflow.save(copy, label));
    saved = copy;
    return chain;
  };
  const finish = async (
    reason: CompletionReason,
    failure?: EnsembleRunFailure,
  ): Promise<ConversationResult> => {
    const next = structuredClone(saved);
    const result = buildResult(runId, next.conversation, reason, failure);
    Object.assign(next.data, { status: 'finished', result });
    await save(next, 'finished');
    emit({ type: 'ensemble_finished', result });
    return result;
  };

  for (;;) {
    let step = saved.execution.currentStep as
      (WorkflowStep & { inputs: Record<string, StepInput> }) | null;
    const state = saved.conversation;
    if (!step) {
      throwIfInterrupted(options.signal, runId);
      if (performance.now() >= deadline) return finish('timeout');
      let plan;
      try {
        plan = planStep(ensemble, state, data().book);
      } catch (error) {
        if (error instanceof SchedulingError)
          return finish('error', { agent: error.agent, message: error.message });
        throw error;
      }
      if (plan.ready.length === 0) {
        return finish(
          state.turn_count === 0
            ? 'no_runnable_agents'
            : plan.limited.length
              ? 'max_agent_executions'
              : 'completed',
        );
      }
      const remaining = ensemble.conversation_limits.max_total_turns - state.turn_count;
      if (remaining <= 0) return finish('max_total_turns');
      const agents = plan.ready.slice(0, remaining);
      const inputs: Record<string, StepInput> = {};
      for (const name of agents) {
        const agent = ensemble.agents.find((candidate) => candidate.name === name)!;
        inputs[name] = {
          input_data: agentInput(agent, data().input, state),
          thread_version: agent.kind === 'llm' ? await workflow.version(name) : 0,
        };
      }
      step = { step: saved.execution.stepHistory.length + 1, agents, finished: {}, inputs };
      const next = structuredClone(saved);
      next.execution.currentStep = step;
      next.execution.nextSteps = [...agents];
      await save(next, `step-${step.step}`);
    }
    const current = step;
    emit({
      type: 'step_started',
      step: current.step,
      agents: current.agents,
      turn_count: state.turn_count,
    });
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => controller.abort(),
      Math.min(2 ** 31 - 1, Math.max(0, deadline - performance.now())),
    );
    const failures = new Map<string, EnsembleRunFailure>();
    const pending = current.agents.filter((name) => !(name in current.finished));
    await Promise.all(
      pending.map((name) =>
        limit(async () => {
          if (controller.signal.aborted) return;
          const agent = ensemble.agents.find((candidate) => candidate.name === name)!;
          const input = current.inputs[name]!;
          if (agent.kind === 'llm') await workflow.truncate(name, input.thread_version);
          emit({ type: 'agent_started', step: current.step, agent: name });
          let outcome: AgentOutcome;
          try {
            outcome = await executeAgent({
              agent,
              input: input.input_data,
              state,
              workflow,
              baseDir: path.resolve(baseDir),
              signal: controller.signal,
              remainingMs: deadline - performance.now(),
              inputHandler: options.inputHandler,
              model: () => models.get(name),
            });
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            if (!controller.signal.aborted)
              failures.set(name, {
                agent: name,
                message,
                ...((error as { stderr?: string }).stderr
                  ? { stderr: (error as { stderr: string }).stderr }
                  : {}),
              });
            emit({
              type: 'agent_finished',
              step: current.step,
              agent: name,
              success: false,
              execution_time: 0,
              error: message,
            });
            return;
          }
          // Outside the agent's try: a failed checkpoint is the store's failure, not the agent's,
          // and it ends the run with the store's error.
          const next = structuredClone(saved);
          next.execution.currentStep!.finished[name] = outcome;
          next.execution.nextSteps = next.execution.nextSteps.filter((other) => other !== name);
          await save(next, `agent-${name}`);
          emit({
            type: 'agent_finished',
            step: current.step,
            agent: name,
            success: true,
            execution_time: outcome.execution_time,
          });
        }),
      ),
    );
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await chain;
    // Interrupted mid-step: leave the step open (its finished agents saved) for resume.
    throwIfInterrupted(options.signal, runId);
    const next = structuredClone(saved);
    const finished = next.execution.currentStep!.finished as Record<string, AgentOutcome>;
    const before = structuredClone(next.conversation);
    for (const name of current.agents)
      if (finished[name])
        markStarted(ensemble, name, before, (next.data as unknown as RunData).book);
    for (const name of current.agents) {
      const outcome = finished[name];
      if (!outcome) continue;
      recordTurn(next.conversation, ensemble, {
        agent_name: name,
        input_data: { ...current.inputs[name]!.input_data },
        ...outcome,
      });
      emit({
        type: 'turn_recorded',
        turn: next.conversation.conversation_history.at(-1)!,
        turn_count: next.conversation.turn_count,
      });
    }
    next.execution.stepHistory.push({ step: current.step, agents: current.agents });
    next.execution.currentStep = null;
    next.execution.nextSteps = [];
    await save(next, `turn-${next.conversation.turn_count}`);
    const failure = current.agents
      .map((name) => failures.get(name))
      .find((entry) => entry !== undefined);
    if (failure) return finish('error', failure);
    if (controller.signal.aborted) return finish('timeout');
  }
}

/**
 * The caller's signal interrupts a run (a shutdown, a cancelled request): the run is left as it
 * was saved, unfinished, so that `resume` continues it. Running out of time is `timeout` instead.
 */
function throwIfInterrupted(signal: AbortSignal | undefined, runId: string): void {
  if (!signal?.aborted) return;
  throw new ColloquyError(
    'ABORTED',
    `Ensemble run ${runId} was interrupted before it finished; its finished turns are saved. ` +
      `Continue it with: colloquy invoke FILE --resume ${runId}`,
    { cause: signal.reason },
  );
}
