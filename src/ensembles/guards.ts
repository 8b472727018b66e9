/**
 * Guards and loop predicates (llm-orc's `when:` and `until:`). Two notations:
 * - llm-orc's: `${agent.field}` (truthy) or `${agent.field} == literal` (`true`, `false`, a
 *   number or a quoted string); a reference that does not resolve is `null`, so the guard is false;
 * - anything without `${` is a CEL condition over the same variables as dependency conditions.
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import type { ConditionContext } from './conditions.js';
import { compileCondition } from './conditions.js';
import type { EnsembleAgent } from './schema.js';
import type { ConversationState } from './state.js';

const REFERENCE = /^\$\{([^}]+)\}$/;

/** Parses the right side of `==`: true, false, null, a number or a quoted string; else the text. */
export function parseLiteral(token: string): unknown {
  if (token === 'true') return true;
  if (token === 'false') return false;
  if (token === 'null') return null;
  if (token.length >= 2 && token[0] === token.at(-1) && (token[0] === '"' || token[0] === "'"))
    return token.slice(1, -1);
  const number = Number(token);
  return token !== '' && Number.isFinite(number) ? number : token;
}

/** Walks a dotted path through objects (and JSON text in `response`); null when it ends. */
export function walk(value: unknown, path: string[]): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current === 'string') {
      try {
        current = JSON.parse(current) as unknown;
      } catch {
        // A string that is not JSON has no fields: the path leads nowhere.
        return null;
      }
    }
    if (!current || typeof current !== 'object') return null;
    if (Array.isArray(current) ? !/^\d+$/.test(part) : !Object.hasOwn(current, part)) return null;
    if (Array.isArray(current) && Number(part) >= current.length) return null;
    current = (current as Record<string, unknown>)[part];
  }
  return current ?? null;
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * Evaluates an llm-orc predicate; `resolve` maps the path inside `${...}` (split on dots) to a
 * value.
 */
export function evaluateReferencePredicate(
  expression: string,
  resolve: (path: string[]) => unknown,
): boolean {
  const value = (token: string): unknown => {
    const match = REFERENCE.exec(token.trim());
    return match ? resolve(match[1]!.trim().split('.')) : parseLiteral(token.trim());
  };
  const equals = expression.indexOf('==');
  if (equals < 0) return truthy(value(expression));
  return isDeepStrictEqual(value(expression.slice(0, equals)), value(expression.slice(equals + 2)));
}

/** True when the expression uses llm-orc's `${...}` notation. */
export function isReferencePredicate(expression: string): boolean {
  return expression.includes('${');
}

/**
 * The value `${agent.field...}` names in the committed state (`path` is `[agent, field, ...]`):
 * the agent's latest output (else its accumulated context), walked down; null when it ends.
 * `when:` guards and `dispatch:` targets resolve references this way.
 */
export function referenceValue(state: ConversationState, path: string[]): unknown {
  const [name, ...rest] = path;
  if (name === undefined) return null;
  return walk(state.latest_outputs[name] ?? state.accumulated_context[name] ?? null, rest);
}

/** Whether an agent's `when:` guard lets it run, against the committed state. */
export function guardAllows(
  agent: EnsembleAgent,
  state: ConversationState,
  context: () => ConditionContext,
): boolean {
  if (agent.when === undefined) return true;
  if (isReferencePredicate(agent.when))
    return evaluateReferencePredicate(agent.when, (path) => referenceValue(state, path));
  return compileCondition(agent.when)(context());
}

/** Whether every dependency of the agent was skipped at its latest run (llm-orc skips it too). */
export function dependenciesSkipped(agent: EnsembleAgent, state: ConversationState): boolean {
  return (
    agent.depends_on.length > 0 &&
    agent.depends_on.every((dep) => state.latest_status[dep.agent_name]?.status === 'skipped')
  );
}

/** A loop's `until:` over the body's output (CEL sees it as `state`, the iteration as `turn`). */
export function untilHolds(
  expression: string,
  output: Record<string, unknown>,
  iteration: number,
): boolean {
  if (isReferencePredicate(expression))
    return evaluateReferencePredicate(expression, (path) => walk(output, path));
  return compileCondition(expression)({
    state: output,
    turn: iteration,
    outputs: {},
    executions: {},
  });
}
