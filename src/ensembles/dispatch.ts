/**
 * llm-orc's dynamic dispatch (`dispatch:`): an agent that runs an ensemble chosen at run time. The
 * target is either an ensemble name written in the file, or a `${agent.field}` reference read from
 * a dependency's output when the agent starts (the same lookup as `when:` guards). This module
 * holds the notation and its validation rules; the engine resolves it in `inputs.ts` and runs the
 * child in `children.ts`, like an `ensemble:` agent.
 * @module
 */

/** `${agent.field...}`: the only reference form `dispatch:` takes. */
const REFERENCE = /^\$\{\s*([A-Za-z_][A-Za-z0-9_-]*)\.([^}\s]+)\s*\}$/;

/**
 * A runtime-resolved target must be a name: letters, digits, `_`, `-` and `.`, with `/` between
 * folder names; never absolute, never `..`. The file's author may write any path (as for
 * `ensemble:`); the value an upstream agent (a model, perhaps) produced may not.
 */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

/** A parsed `dispatch:` value. */
export type DispatchSpec =
  { kind: 'reference'; agent: string; path: string[] } | { kind: 'literal'; name: string };

/**
 * Parses a `dispatch:` value: a `${agent.field}` reference, or a literal ensemble name (anything
 * without `${`). Returns a problem (with the fix) for any other use of `${`.
 *
 * @example
 * ```ts
 * parseDispatch('${route.target}'); // { kind: 'reference', agent: 'route', path: ['target'] }
 * parseDispatch('code-seat'); // { kind: 'literal', name: 'code-seat' }
 * ```
 */
export function parseDispatch(value: string): DispatchSpec | { problem: string } {
  const text = value.trim();
  if (!text.includes('${')) return { kind: 'literal', name: text };
  const match = REFERENCE.exec(text);
  if (!match)
    return {
      problem:
        `dispatch "${value}" is neither an ensemble name nor a reference of the form ` +
        '${agent.field} (one agent of depends_on, then a field of its output, e.g. ${route.target})',
    };
  return { kind: 'reference', agent: match[1]!, path: match[2]!.split('.') };
}

/** Whether a value resolved at run time may name an ensemble (see {@link parseDispatch}). */
export function isDispatchName(value: unknown): value is string {
  return typeof value === 'string' && NAME.test(value);
}

/** A value as shown in a message: JSON, cut to 80 characters. */
export function showValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Validation: the problem with a `${dep.field}` dispatch whose `dep` is not among the agent's
 * dependencies (`key` is how the file spells them), or undefined. The dependency guarantees that
 * `dep` has run when the agent starts.
 */
export function dispatchDependencyProblem(
  agent: { name?: unknown },
  dispatch: string,
  deps: { key: string; dependencies: unknown[]; agents: string[] },
): string | undefined {
  const spec = parseDispatch(dispatch);
  if (!('kind' in spec) || spec.kind !== 'reference' || deps.dependencies.includes(spec.agent))
    return undefined;
  const name = String(agent.name);
  return deps.agents.includes(spec.agent)
    ? `agent "${name}" dispatches on "${dispatch}", but "${spec.agent}" is not in its ${deps.key}, so its output may not exist yet; add "${spec.agent}" to ${deps.key}`
    : `agent "${name}" dispatches on "${dispatch}", but "${spec.agent}" is not an agent of this ensemble (agents: ${deps.agents.join(', ')}); name one of them and add it to ${deps.key}`;
}

/**
 * The ensembles an agent (as written) names in the file, with their field: `ensemble:`,
 * `loop.body` and a literal `dispatch:` (a `${dep.field}` one is known only at run time).
 */
export function namedEnsembles(
  agent: Record<string, unknown>,
): { field: string[]; reference: string }[] {
  const named: { field: string[]; reference: string }[] = [];
  if (typeof agent.ensemble === 'string')
    named.push({ field: ['ensemble'], reference: agent.ensemble });
  const loop = agent.loop as Record<string, unknown> | undefined;
  if (loop && typeof loop === 'object' && typeof loop.body === 'string')
    named.push({ field: ['loop', 'body'], reference: loop.body });
  if (typeof agent.dispatch === 'string') {
    const spec = parseDispatch(agent.dispatch);
    if ('kind' in spec && spec.kind === 'literal')
      named.push({ field: ['dispatch'], reference: spec.name });
  }
  return named;
}
