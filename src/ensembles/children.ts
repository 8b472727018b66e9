/**
 * Sub-ensembles as agents (llm-orc ADR-013), loops (`loop: { body, until, max_iterations,
 * carry }`) and dispatched ensembles (`dispatch:`, the target recorded in the agent's input when
 * its step was prepared; see `inputs.ts`). A child run is an ordinary run in the same store,
 * under the run id `{parent run}/{agent}/{execution}[#{fan-out index}][/{iteration}]`, so that a
 * resumed parent resumes its children (a finished child answers its stored result). Nesting is
 * limited in depth.
 * @module
 */
import path from 'node:path';
import { ColloquyError } from '../errors.js';
import { addUsage, emptyUsage } from '../usage.js';
import type { ThreadStore } from '../stores/types.js';
import type { EnsembleEvent } from './events.js';
import type { ChildRunner } from './execute.js';
import { walk, untilHolds } from './guards.js';
import { resolveDispatch } from './inputs.js';
import { fromLlmOrcUsage } from './llmOrcUsage.js';
import { listEnsembleFiles, loadEnsemble, resolveEnsemblePath } from './load.js';
import type { AgentInput, ConversationResult } from './runState.js';
import type { Ensemble, EnsembleAgent } from './schema.js';
import { deliverableOf } from './llmorc/deliverable.js';
import { AgentRunError } from './scriptAgent.js';
import { mainThreadId } from './workflowThread.js';

/** Finds the ensemble an `ensemble:` or `loop.body` names, from the parent ensemble. */
export type ResolveEnsemble = (reference: string, parent: Ensemble) => Promise<Ensemble>;

/** Default {@link ResolveEnsemble}: a path, or `{name}.yaml`, in the parent file's folder. */
export const resolveSiblingEnsemble: ResolveEnsemble = (reference, parent) =>
  loadEnsemble(reference, { cwd: parent.baseDir ?? process.cwd(), ensemblesDir: '.' });

/**
 * Checks that `reference` names an ensemble the way {@link resolveSiblingEnsemble} finds it from
 * `baseDir` (a validate-time check of `ensemble:`, `loop.body` and a literal `dispatch:`).
 * Returns the problem, or undefined when it is found.
 */
export function checkSiblingEnsemble(reference: string, baseDir: string): string | undefined {
  try {
    resolveEnsemblePath(reference, { cwd: baseDir, ensemblesDir: '.' });
    return undefined;
  } catch (error) {
    if (!(error instanceof ColloquyError)) throw error;
    return `ensemble "${reference}" was not found beside this file (looked for ${reference}, ${reference}.yaml and ${reference}.yml in ${baseDir}); create it or fix the name`;
  }
}

/** The names {@link resolveSiblingEnsemble} finds for a parent: the YAML files beside it. */
export async function listSiblingEnsembles(parent: Ensemble): Promise<string[]> {
  const files = await listEnsembleFiles(parent.baseDir ?? process.cwd());
  return files.map((file) => path.basename(file).replace(/\.ya?ml$/i, ''));
}

/** How deep ensembles may nest (the top level is depth 0). */
export const MAX_ENSEMBLE_DEPTH = 5;

/** Runs a child ensemble to its end (given by runEnsemble, to avoid an import cycle). */
export type RunChildEnsemble = (
  ensemble: Ensemble,
  options: { runId: string; resume: boolean; input: string; signal: AbortSignal; depth: number },
) => Promise<ConversationResult>;

/**
 * The output of a finished child run, as its parent agent's output. Given the child's agents, it
 * also carries llm-orc's `deliverable` (the terminal agent's response text, see
 * {@link deliverableOf}), which llm-orc scripts read from a dispatched or nested ensemble.
 */
export function childOutput(
  result: ConversationResult,
  agents?: ReadonlyArray<Pick<EnsembleAgent, 'name' | 'depends_on'>>,
): Record<string, unknown> {
  const deliverable = agents ? deliverableOf(result, agents) : undefined;
  return {
    completion_reason: result.completion_reason,
    turn_count: result.turn_count,
    final_state: result.final_state,
    ...(result.failed_agents?.length ? { failed_agents: result.failed_agents } : {}),
    ...(deliverable !== undefined ? { deliverable } : {}),
  };
}

/** The terminal output of a run: the output of its last successful turn (`{}` if none). */
export function terminalOutput(result: ConversationResult): Record<string, unknown> {
  for (let i = result.conversation_history.length - 1; i >= 0; i--) {
    const turn = result.conversation_history[i]!;
    if ((turn.status ?? 'success') === 'success') return turn.output_data;
  }
  return {};
}

/** Builds the {@link ChildRunner} of one run. */
export function childRunner(options: {
  parent: Ensemble;
  parentRunId: string;
  store: ThreadStore;
  depth: number;
  resolve: ResolveEnsemble;
  run: RunChildEnsemble;
  /** The ensembles `resolve` knows, for the message of a dispatch that names none of them. */
  known?: (parent: Ensemble) => Promise<string[]>;
  /** Receives `agent_dispatched` when a dispatch agent starts its child. */
  emit?: (event: EnsembleEvent) => void;
}): ChildRunner {
  const runChild = async (
    ensemble: Ensemble,
    runId: string,
    input: string,
    signal: AbortSignal,
  ) => {
    const resume = (await options.store.getThread(mainThreadId(runId))) !== null;
    try {
      return await options.run(ensemble, {
        runId,
        resume,
        input,
        signal,
        depth: options.depth + 1,
      });
    } catch (error) {
      // Stopped with its parent's step (timeout, cancellation): the child is left resumable,
      // and for the parent this agent did not finish.
      if (signal.aborted)
        throw new AgentRunError(ensemble.name, 'the run was stopped while this sub-ensemble ran.', {
          cause: error,
        });
      throw error;
    }
  };
  const resolve = async (agentName: string, reference: string): Promise<Ensemble> => {
    if (options.depth + 1 > MAX_ENSEMBLE_DEPTH)
      throw new AgentRunError(
        agentName,
        `ensembles nest deeper than ${MAX_ENSEMBLE_DEPTH} levels here. Check that "${reference}" does not refer back to an ensemble that runs it.`,
      );
    try {
      return await options.resolve(reference, options.parent);
    } catch (error) {
      if (!(error instanceof ColloquyError)) throw error;
      throw new AgentRunError(
        agentName,
        `its ensemble "${reference}" could not be loaded: ${error.message}`,
        {
          cause: error,
        },
      );
    }
  };
  /** The ensemble a dispatch agent runs: its recorded target, loaded; else why not, as a failure. */
  const dispatched = async (agentName: string, record: AgentInput['dispatch']) => {
    const known = async () => {
      // Only a hint in an error already being reported: without the list, the error stands.
      const names = options.known ? await options.known(options.parent).catch(() => []) : [];
      return names.length ? ` Known ensembles: ${names.join(', ')}.` : '';
    };
    const reference = record?.reference ?? '(none)';
    if (record?.target === undefined)
      throw new AgentRunError(
        agentName,
        `its dispatch "${reference}" did not resolve: ${record?.problem ?? 'no target was recorded'}.${await known()}`,
      );
    try {
      return await resolve(agentName, record.target);
    } catch (error) {
      if (!(error instanceof AgentRunError) || options.depth + 1 > MAX_ENSEMBLE_DEPTH) throw error;
      throw new AgentRunError(
        agentName,
        `its dispatch "${reference}" resolved to "${record.target}", which is not an ensemble it can run: ${(error.cause as Error | undefined)?.message ?? error.message}${await known()}`,
        { cause: error },
      );
    }
  };
  return async ({ agent, input, instance, signal, state }) => {
    const base = `${options.parentRunId}/${agent.name}/${instance}`;
    if (agent.loop === undefined) {
      // A step saved before dispatch targets were recorded resolves on the committed state.
      const record =
        agent.kind === 'dispatch'
          ? (input.dispatch ?? (state ? resolveDispatch(agent.dispatch!, state) : undefined))
          : undefined;
      const child =
        agent.kind === 'dispatch'
          ? await dispatched(agent.name, record)
          : await resolve(agent.name, agent.ensemble!);
      if (record?.target !== undefined)
        options.emit?.({
          type: 'agent_dispatched',
          agent: agent.name,
          reference: record.reference,
          target: record.target,
          ensemble: child.name,
          child_run_id: base,
        });
      const result = await runChild(child, base, input.input, signal);
      return {
        output: childOutput(result, child.agents),
        usage: fromLlmOrcUsage(result.usage),
        ...(result.completion_reason === 'error'
          ? {
              failed: `its ${agent.kind === 'dispatch' ? 'dispatched ' : ''}ensemble "${child.name}" ended with an error: ${result.error?.message ?? 'unknown'}`,
            }
          : {}),
      };
    }
    const loop = agent.loop;
    const body = await resolve(agent.name, loop.body);
    let current = input.input;
    let output: Record<string, unknown> = {};
    const usage = emptyUsage();
    for (let iteration = 1; iteration <= loop.max_iterations; iteration++) {
      const result = await runChild(body, `${base}/${iteration}`, current, signal);
      addUsage(usage, fromLlmOrcUsage(result.usage));
      if (result.completion_reason === 'error')
        return {
          output: { output, iterations: iteration, terminated: 'error' },
          usage,
          failed: `iteration ${iteration} of its loop body "${body.name}" ended with an error: ${result.error?.message ?? 'unknown'}`,
        };
      output = terminalOutput(result);
      let done: boolean;
      try {
        done = untilHolds(loop.until, output, iteration);
      } catch (error) {
        throw new AgentRunError(
          agent.name,
          `its loop's until "${loop.until}" failed: ${(error as Error).message}`,
        );
      }
      if (done) return { output: { output, iterations: iteration, terminated: 'until' }, usage };
      if (loop.carry !== undefined) {
        const match = /^\$\{([^}]+)\}$/.exec(loop.carry.trim());
        const carried = match ? walk(output, match[1]!.trim().split('.')) : null;
        if (carried !== null)
          current = typeof carried === 'string' ? carried : JSON.stringify(carried);
      }
    }
    return {
      output: { output, iterations: loop.max_iterations, terminated: 'exhausted' },
      usage,
    };
  };
}
