/**
 * The scheduler decides, from the committed state alone, which agents run in the next step. It
 * is pure, so a resumed run plans exactly what an uninterrupted one would.
 *
 * Rules, per agent in file order:
 * - An agent without dependencies runs on every step until it has run `conversation.max_turns`
 *   times (default 1: once, at the start) or a limit stops the run. An agent with
 *   `triggers_conversation: true` may also start once before its dependencies have run.
 * - An agent another agent requested (an llm-orc AgentRequest, `target_agent_type`) runs in the
 *   next step; that run receives every request waiting for it (in priority order).
 * - Otherwise it runs when its dependencies hold: a dependency holds when that agent has new
 *   output since this agent last ran, its condition (if any) is true, and it has triggered this
 *   agent fewer than `max_executions` times. Every `requires_all` dependency must hold, and when
 *   there are `requires_all: false` dependencies at least one of them must hold.
 * - An agent that has reached its `conversation.max_turns`, or whose dependencies have triggered it
 *   `max_executions` times, is simply not ready (as in ADR-005's executor). Only
 *   `conversation_limits.max_agent_executions` blocks an agent that would otherwise run: such an
 *   agent is `limited`, and a run that stops on it ends with `max_agent_executions`.
 * @module
 */
import { defaultRuntime, type ColloquyRuntime } from '../runtime.js';
import type { ConditionContext } from './conditions.js';
import { cachedCondition, ConditionError } from './conditions.js';
import type { Ensemble, EnsembleAgent, EnsembleDependency } from './schema.js';
import type { SchedulerBook } from './runState.js';
import type { ConversationState } from './state.js';
import { latestFailures, latestOutputs } from './state.js';

export type { SchedulerBook };

/** What the next step should be. */
export interface StepPlan {
  /** Agents to run now, in file order. */
  ready: string[];
  /** Agents that would run but reached `conversation_limits.max_agent_executions`. */
  limited: string[];
}

/** A condition that failed, with the agent whose dependency it guards. */
export class SchedulingError extends ConditionError {
  readonly agent: string;

  constructor(agent: string, error: ConditionError) {
    super(`While scheduling agent "${agent}": ${error.message}`, { cause: error });
    this.agent = agent;
  }
}

/** An empty book. */
export function createBook(): SchedulerBook {
  return { consumed: {}, triggers: {}, requests: {} };
}

/** Whether a dependency's condition holds in this scheduling pass. */
type ConditionCheck = (expression: string) => boolean;

type DependencyStatus = 'holds' | 'no';

function dependencyStatus(
  agent: EnsembleAgent,
  dep: EnsembleDependency,
  state: ConversationState,
  book: SchedulerBook,
  holds: ConditionCheck,
): DependencyStatus {
  const runs = state.agent_execution_count[dep.agent_name] ?? 0;
  const seen = book.consumed[agent.name]?.[dep.agent_name] ?? 0;
  if (runs === 0 || runs <= seen) return 'no';
  if (dep.condition !== undefined && !holds(dep.condition)) return 'no';
  // A dependency that has triggered this agent max_executions times no longer makes it ready.
  const used = book.triggers[agent.name]?.[dep.agent_name] ?? 0;
  return used < dep.max_executions ? 'holds' : 'no';
}

/** Whether the agent's dependencies (or a request, or triggers_conversation) make it ready. */
function wants(
  agent: EnsembleAgent,
  state: ConversationState,
  book: SchedulerBook,
  holds: ConditionCheck,
): boolean {
  const own = state.agent_execution_count[agent.name] ?? 0;
  if (book.requests[agent.name]?.length) return true;
  if (agent.depends_on.length === 0) return true;
  if (own === 0 && agent.conversation.triggers_conversation) return true;
  const statusOf = (dep: EnsembleDependency) => {
    try {
      return dependencyStatus(agent, dep, state, book, holds);
    } catch (error) {
      throw error instanceof ConditionError ? new SchedulingError(agent.name, error) : error;
    }
  };
  const all = agent.depends_on.filter((dep) => dep.requires_all);
  const any = agent.depends_on.filter((dep) => !dep.requires_all);
  const allStatus = all.map(statusOf);
  const anyStatus = any.map(statusOf);
  const allOk = allStatus.every((status) => status === 'holds');
  const anyOk = any.length === 0 || anyStatus.includes('holds');
  return allOk && anyOk;
}

/** The variables conditions see. */
export function conditionContext(state: ConversationState): ConditionContext {
  return {
    state: state.accumulated_context,
    turn: state.turn_count,
    outputs: latestOutputs(state),
    executions: state.agent_execution_count,
    failures: latestFailures(state),
  };
}

/**
 * Plans the next step. Throws {@link SchedulingError} when a condition fails to evaluate.
 * Conditions are compiled once per `runtime` (default: the default runtime).
 */
export function planStep(
  ensemble: Ensemble,
  state: ConversationState,
  book: SchedulerBook,
  runtime: ColloquyRuntime = defaultRuntime(),
): StepPlan {
  let cached: ConditionContext | undefined;
  const holds: ConditionCheck = (expression) =>
    cachedCondition(expression, runtime)((cached ??= conditionContext(state)));
  const plan: StepPlan = { ready: [], limited: [] };
  for (const agent of ensemble.agents) {
    const own = state.agent_execution_count[agent.name] ?? 0;
    // An agent that used up its own max_turns is not ready (ADR-005's should_execute_agent).
    if (own >= agent.conversation.max_turns) continue;
    if (!wants(agent, state, book, holds)) continue;
    const cap = ensemble.conversation_limits.max_agent_executions[agent.name] ?? Infinity;
    if (own >= cap) plan.limited.push(agent.name);
    else plan.ready.push(agent.name);
  }
  return plan;
}

/** Records that `agent` started with the committed state `state`: marks its dependencies consumed. */
export function markStarted(
  ensemble: Ensemble,
  agentName: string,
  state: ConversationState,
  book: SchedulerBook,
): void {
  const agent = ensemble.agents.find((candidate) => candidate.name === agentName);
  if (!agent) return;
  delete book.requests[agentName];
  const consumed = (book.consumed[agentName] ??= {});
  const triggers = (book.triggers[agentName] ??= {});
  for (const dep of agent.depends_on) {
    const runs = state.agent_execution_count[dep.agent_name] ?? 0;
    if (runs > (consumed[dep.agent_name] ?? 0))
      triggers[dep.agent_name] = (triggers[dep.agent_name] ?? 0) + 1;
    consumed[dep.agent_name] = runs;
  }
}
