/**
 * `runEnsemble`: runs an ensemble as a conversation of steps (the loop; one step is `step.ts`,
 * checkpointing `checkpoint.ts`). Each step runs the agents the scheduler found ready, in
 * parallel up to `concurrency`; every finished agent is checkpointed, and the step commits its
 * turns in file order, so a resumed run (after a crash, even SIGKILL) re-runs only unfinished
 * agents and ends with the result an uninterrupted run gives.
 *
 * One caller at a time runs a given run: when the store offers leases, the run holds the lease
 * `ensemble-run:{runId}` while it runs (see `runLease.ts`); a second resume of the same run waits
 * up to `leaseWaitMs` and is then refused with `LEASE_BUSY`.
 * @module
 */
import { DEFAULT_ENSEMBLE_CONCURRENCY } from '../defaults.js';
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { ColloquyError } from '../errors.js';
import type { ColloquyRuntime } from '../runtime.js';
import type { ProfileRegistry } from '../models/profiles.js';
import type { ThreadStore } from '../stores/types.js';
import { AgentModels, defaultCreateModel } from './agentModels.js';
import type { CreateModel } from './agentModels.js';
import { RunCheckpoints } from './checkpoint.js';
import { childRunner, listSiblingEnsembles, resolveSiblingEnsemble } from './children.js';
import type { ResolveEnsemble } from './children.js';
import type { EnsembleEvent } from './events.js';
import type { InputHandler } from './inputHandlers.js';
import type { PromptFormatter } from './llmAgent.js';
import { buildResult } from './result.js';
import type { CompletionReason, ConversationResult, EnsembleRunFailure } from './result.js';
import { holdRunLease, RUN_LEASE_RESUME_WAIT_MS } from './runLease.js';
import type { Ensemble } from './schema.js';
import { createBook, planStep, SchedulingError } from './scheduler.js';
import { prepareStep, recordStep, runStep } from './step.js';
import type { StepContext } from './step.js';
import { createConversationState } from './state.js';
import { WorkflowThread } from './workflowThread.js';

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
  /** Cancels the run: running agents are stopped and the run is left resumable (ABORTED). */
  signal?: AbortSignal;
  /** Builds LLM agents' user messages (default: Colloquy's `llmPrompt`). */
  formatPrompt?: PromptFormatter;
  /** Finds the ensembles `ensemble:`, `loop.body` and `dispatch:` name (default: beside the ensemble file). */
  resolveEnsemble?: ResolveEnsemble;
  /**
   * How long to wait for a run another caller is running before refusing with `LEASE_BUSY`
   * (default: 0 for a new run; for a resume a little more than a lease's life, 6 s).
   */
  leaseWaitMs?: number;
  /** Nesting depth of this run (set for sub-ensembles; default 0). */
  depth?: number;
  /** The user the run is for: the scope of the ensemble's `memory:` (pass it on resume too). */
  userId?: string;
  /**
   * The runtime whose in-process state the run uses: the compiled-condition cache and the script
   * spawn helper (default: {@link defaultRuntime}). Sub-ensembles run in the same runtime.
   */
  runtime?: ColloquyRuntime;
}

/**
 * Runs (or resumes) an ensemble and returns its {@link ConversationResult}.
 *
 * @example
 * ```ts
 * const ensemble = await loadEnsemble('examples/ensembles/iterative-analysis.yaml');
 * const store = new SqliteStore({ path: '.colloquy/colloquy.db' });
 * const result = await runEnsemble(ensemble, { input: 'Q3 sales', store, runId: 'run-1' });
 * console.log(result.completion_reason, result.turn_count, result.failed_agents);
 * // After a crash: continue where it stopped.
 * await runEnsemble(ensemble, { store, runId: 'run-1', resume: true });
 * ```
 */
export async function runEnsemble(
  ensemble: Ensemble,
  options: RunEnsembleOptions = {},
): Promise<ConversationResult> {
  const store = options.store ?? new (await import('../stores/memory.js')).MemoryStore();
  const runId =
    typeof options.resume === 'string' ? options.resume : (options.runId ?? randomUUID());
  const waitMs = options.leaseWaitMs ?? (options.resume ? RUN_LEASE_RESUME_WAIT_MS : 0);
  const lease = await holdRunLease(store, runId, waitMs, options.signal);
  try {
    return await runHeld(ensemble, { ...options, store, runId }, lease);
  } finally {
    await lease?.release();
  }
}

async function openWorkflow(
  ensemble: Ensemble,
  options: RunEnsembleOptions & { store: ThreadStore; runId: string },
): Promise<WorkflowThread> {
  const { store, runId } = options;
  if (!options.resume) {
    return WorkflowThread.create(store, runId, {
      conversation: createConversationState(options.initialContext),
      data: {
        status: 'running',
        ensemble: ensemble.name,
        input: options.input ?? ensemble.default_task ?? '',
        book: createBook(),
        elapsed_ms: 0,
      },
    });
  }
  const loaded = await WorkflowThread.load(store, runId, { repair: true });
  if (!loaded)
    throw new ColloquyError(
      'ENSEMBLE_RUN_ERROR',
      `There is no run "${runId}" to resume in the ${store.kind} store. Check the run id and --store.`,
    );
  return loaded;
}

async function runHeld(
  ensemble: Ensemble,
  options: RunEnsembleOptions & { store: ThreadStore; runId: string },
  lease: { readonly lost: boolean } | null,
): Promise<ConversationResult> {
  const { store, runId } = options;
  const emit = options.onEvent ?? (() => undefined);
  const workflow = await openWorkflow(ensemble, options);
  const checkpoints = new RunCheckpoints(workflow);
  const data = checkpoints.data;
  if (data.ensemble !== ensemble.name) {
    throw new ColloquyError(
      'ENSEMBLE_RUN_ERROR',
      `Run "${runId}" belongs to ensemble "${data.ensemble}", not "${ensemble.name}". Resume it with its own ensemble file.`,
    );
  }
  if (data.status === 'finished' && data.result)
    return { ...data.result, conversation_history: [...workflow.history] };
  const conversation = workflow.conversation();
  emit({
    type: 'ensemble_started',
    run_id: runId,
    ensemble: ensemble.name,
    resumed: Boolean(options.resume),
    turn_count: conversation.turn_count,
  });
  const deadline =
    performance.now() + ensemble.conversation_limits.timeout_seconds * 1000 - data.elapsed_ms;
  const open = checkpoints.head.execution.currentStep;
  const prior = { ...conversation.model_requests };
  for (const [name, outcome] of Object.entries(open?.finished ?? {}))
    prior[name] = (prior[name] ?? 0) + (outcome.usage?.requests ?? 0);
  const depth = options.depth ?? 0;
  // Memory (its backends, SQLite vectors and the SDK's tool) loads only for runs that use it.
  const memory =
    ensemble.memory && options.userId !== undefined
      ? (await import('../memory/ensembleMemory.js')).runMemory(ensemble, options)
      : undefined;
  const context: StepContext = {
    ensemble,
    checkpoints,
    conversation,
    models: new AgentModels(
      ensemble,
      options.profiles,
      options.createModel ?? defaultCreateModel,
      prior,
    ),
    limit: pLimit(Math.max(1, options.concurrency ?? DEFAULT_ENSEMBLE_CONCURRENCY)),
    deadline,
    emit,
    signal: options.signal,
    inputHandler: options.inputHandler,
    formatPrompt: options.formatPrompt,
    memory,
    runtime: options.runtime,
    runChild: childRunner({
      parent: ensemble,
      parentRunId: runId,
      store,
      depth,
      resolve: options.resolveEnsemble ?? resolveSiblingEnsemble,
      ...(options.resolveEnsemble ? {} : { known: listSiblingEnsembles }),
      emit,
      run: (child, childOptions) =>
        runEnsemble(child, {
          ...options,
          ...childOptions,
          onEvent: undefined,
          initialContext: undefined,
        }),
    }),
  };
  const finish = async (
    reason: CompletionReason,
    failure?: EnsembleRunFailure,
  ): Promise<ConversationResult> => {
    const result = buildResult(runId, conversation, reason, failure);
    const { conversation_history: _history, ...stored } = result;
    Object.assign(checkpoints.head.data, { status: 'finished', result: structuredClone(stored) });
    await checkpoints.save('finished');
    // Memory indexes the run's turns only now that they are saved.
    await context.memory?.flush();
    emit({ type: 'ensemble_finished', result });
    return result;
  };

  /** What comes next from the committed state: a finish, or the agents of the next step. */
  const decide = ():
    { finish: CompletionReason; failure?: EnsembleRunFailure } | { agents: string[] } => {
    throwIfInterrupted(options.signal, runId);
    if (performance.now() >= deadline) return { finish: 'timeout' };
    let plan;
    try {
      plan = planStep(ensemble, conversation, data.book, options.runtime);
    } catch (error) {
      if (error instanceof SchedulingError)
        return { finish: 'error', failure: { agent: error.agent, message: error.message } };
      throw error;
    }
    // Conditions count against the run's time.
    if (performance.now() >= deadline) return { finish: 'timeout' };
    if (plan.ready.length === 0)
      return {
        finish:
          conversation.turn_count === 0
            ? 'no_runnable_agents'
            : plan.limited.length
              ? 'max_agent_executions'
              : 'completed',
      };
    const remaining =
      (ensemble.conversation_limits.max_total_turns ?? Infinity) - conversation.turn_count;
    if (remaining <= 0) return { finish: 'max_total_turns' };
    return { agents: plan.ready.slice(0, remaining) };
  };

  let step = checkpoints.head.execution.currentStep;
  if (!step) {
    const next = decide();
    if ('finish' in next) return finish(next.finish, next.failure);
    step = await prepareStep(context, next.agents);
    await checkpoints.save(`step-${step.step}`, false);
  }
  for (;;) {
    if (lease?.lost) throw leaseLost(runId);
    throwIfInterrupted(options.signal, runId);
    const { timedOut } = await runStep(context, step);
    // Interrupted mid-step: leave the step open (its finished agents saved) for resume.
    throwIfInterrupted(options.signal, runId);
    if (lease?.lost) throw leaseLost(runId);
    const { turns, stop } = recordStep(context, step);
    if (options.signal?.aborted) {
      await checkpoints.commit(turns, `turn-${conversation.turn_count}`);
      throwIfInterrupted(options.signal, runId);
    }
    // The step's turns and the next step's plan are saved in one write.
    const next: ReturnType<typeof decide> = stop
      ? { finish: 'error', failure: stop }
      : timedOut
        ? { finish: 'timeout' }
        : decide();
    if ('agents' in next) step = await prepareStep(context, next.agents);
    await checkpoints.commit(turns, `turn-${conversation.turn_count}`);
    for (const turn of turns) emit({ type: 'turn_recorded', turn, turn_count: turn.turn_number });
    if ('finish' in next) return finish(next.finish, next.failure);
  }
}

function leaseLost(runId: string): ColloquyError {
  return new ColloquyError(
    'LEASE_BUSY',
    `Ensemble run ${runId} lost its lease (the store was unreachable longer than the lease lasts, ` +
      'and another caller may have taken the run over). This process stopped without saving further; ' +
      `resume it with: colloquy invoke FILE --resume ${runId}`,
  );
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
