/**
 * Dependency conditions: CEL expressions (`@marcbachmann/cel-js`) over exactly five variables,
 * `state` (accumulated_context), `turn` (turns so far), `outputs` (each agent's latest output),
 * `executions` (runs per agent) and `failures` (agents whose latest run failed, with the error). Nothing else is reachable: no host functions are registered, and
 * CEL has no loops, I/O or property access outside the given maps.
 *
 * Evaluation cannot hang: expressions are capped in length and AST size, comprehension macros
 * (`all`, `exists`, `map`, ...) cannot nest, `matches()` (regular expressions, which can
 * backtrack) is refused, and the context is capped in size. A comprehension's cost (items it
 * may visit times the longest string it may scan) is bounded before it runs, so one evaluation
 * takes milliseconds, not seconds. Objects are passed as CEL maps (JS `Map`s), so keys such as
 * `constructor` or `__proto__` are plain data. Every integral number is passed as a CEL `int`, so
 * `state.count + 1 == 3` works.
 * @module
 */
import { createRequire } from 'node:module';
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { LRUCache } from 'lru-cache';
import { ColloquyError } from '../errors.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';

/** The variables a condition sees. */
export interface ConditionContext {
  state: Record<string, unknown>;
  turn: number;
  outputs: Record<string, unknown>;
  executions: Record<string, number>;
  /** Agents whose latest run failed, with the error message (default: none). */
  failures?: Record<string, string>;
}

/** A syntax or type problem in a condition, with its 0-based offset in the expression. */
export interface ConditionProblem {
  message: string;
  offset: number;
}

/** A compiled condition: call it with a context; it returns a boolean or throws ConditionError. */
export type CompiledCondition = (context: ConditionContext) => boolean;

/** A condition failed to evaluate (missing key, wrong type, non-boolean result, too large a context). */
export class ConditionError extends ColloquyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ENSEMBLE_RUN_ERROR', message, options);
  }
}

/** Bounds that keep parsing and evaluation finite and small. */
export const CONDITION_LIMITS = {
  maxLength: 2000,
  maxAstNodes: 256,
  maxDepth: 24,
  /** Values (scalars, list items, map entries) in the whole context. */
  maxContextValues: 20_000,
  maxContextDepth: 32,
  /** Characters of all strings in the context together. */
  maxContextChars: 8 * 1024 * 1024,
  /** Items a comprehension may visit times the longest string in the context. */
  maxComprehensionCost: 50_000_000,
} as const;

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/**
 * CEL loads on the first condition checked or compiled, not with this module: an ensemble without
 * conditions never loads it. `require` of an ES module is synchronous on Node >= 20.19, so
 * checking stays synchronous and load-time validation still reports file, field and line.
 */
const requireModule = createRequire(import.meta.url);

/** The CEL environment of a runtime: the five variables, the size limits. */
const ENVIRONMENT = defineRuntimeSlot('ensembles.celEnvironment', (): Environment => {
  const cel = requireModule('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
  const made = new cel.Environment({
    unlistedVariablesAreDyn: false,
    homogeneousAggregateLiterals: false,
    limits: {
      maxAstNodes: CONDITION_LIMITS.maxAstNodes,
      maxDepth: CONDITION_LIMITS.maxDepth,
      maxListElements: 64,
      maxMapEntries: 64,
      maxCallArguments: 8,
    },
  });
  made.registerVariable('state', 'map');
  made.registerVariable('turn', 'int');
  made.registerVariable('outputs', 'map');
  made.registerVariable('executions', 'map');
  made.registerVariable('failures', 'map');
  return made;
});

/** The CEL environment (made, and CEL loaded, on first use). */
function environment(): Environment {
  return defaultRuntime().use(ENVIRONMENT);
}

function offsetOf(error: unknown): number {
  const e = error as { node?: { pos?: number }; range?: { start?: number } };
  return e.node?.pos ?? e.range?.start ?? 0;
}

function summaryOf(error: unknown): string {
  const e = error as { summary?: string; message?: string };
  return (e.summary ?? e.message ?? String(error)).split('\n')[0]!;
}

/** Children of a cel-js AST node. */
function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object' && 'op' in value) out.push(value as ASTNode);
  };
  visit(node.args);
  return out;
}

/** Refuses nested comprehensions and `matches()`; returns the first problem found. */
function checkShape(node: ASTNode, inComprehension = false): ConditionProblem | null {
  const name = node.op === 'rcall' || node.op === 'call' ? (node.args[0] as string) : undefined;
  if (name === 'matches') {
    return {
      offset: node.pos,
      message:
        'matches() is not allowed in conditions (regular expressions can backtrack without bound); use contains(), startsWith() or endsWith()',
    };
  }
  const isComprehension = node.op === 'rcall' && name !== undefined && COMPREHENSIONS.has(name);
  if (isComprehension && inComprehension) {
    return {
      offset: node.pos,
      message: `nested comprehensions are not allowed in conditions ("${name}" inside another); split the check or store a flag from the agent`,
    };
  }
  for (const child of children(node)) {
    const problem = checkShape(child, inComprehension || isComprehension);
    if (problem) return problem;
  }
  return null;
}

/**
 * Checks a condition without running it: syntax, known variables, boolean type and the safety
 * rules. Returns `null` when it is fine.
 */
export function checkCondition(expression: string): ConditionProblem | null {
  if (expression.length > CONDITION_LIMITS.maxLength) {
    return {
      offset: CONDITION_LIMITS.maxLength,
      message: `the condition is ${expression.length} characters long; the limit is ${CONDITION_LIMITS.maxLength}`,
    };
  }
  let parsed;
  try {
    parsed = environment().parse(expression);
  } catch (error) {
    return { offset: offsetOf(error), message: `CEL syntax error: ${summaryOf(error)}` };
  }
  const shape = checkShape(parsed.ast);
  if (shape) return shape;
  const checked = parsed.check();
  if (!checked.valid) {
    return {
      offset: offsetOf(checked.error),
      message: `${summaryOf(checked.error)} (conditions can use only state, turn, outputs, executions and failures)`,
    };
  }
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return {
      offset: 0,
      message: `the condition must be a boolean expression, but it is of type ${checked.type}; compare the value, e.g. "... == true"`,
    };
  }
  return null;
}

/** What converting a context measured. */
interface Budget {
  left: number;
  chars: number;
  longest: number;
  items: number;
}

/** Converts a JSON-like value for CEL (integers become `int`, objects `Map`s) within the caps. */
function toCel(value: unknown, budget: Budget, depth: number): unknown {
  if (--budget.left < 0) {
    throw new ConditionError(
      `The condition context holds more than ${CONDITION_LIMITS.maxContextValues} values. ` +
        'Have agents return smaller outputs, or write a summary flag under a state_key and test that.',
    );
  }
  if (depth > CONDITION_LIMITS.maxContextDepth) {
    throw new ConditionError(
      `The condition context is nested deeper than ${CONDITION_LIMITS.maxContextDepth} levels. Flatten the agents' outputs.`,
    );
  }
  if (typeof value === 'string') {
    budget.chars += value.length;
    budget.longest = Math.max(budget.longest, value.length);
    if (budget.chars > CONDITION_LIMITS.maxContextChars)
      throw new ConditionError(
        `The condition context holds more than ${CONDITION_LIMITS.maxContextChars} characters of text. ` +
          'Have agents return smaller outputs, or write a summary flag under a state_key and test that.',
      );
    return value;
  }
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value === undefined ? null : value;
  if (Array.isArray(value)) {
    budget.items += value.length;
    return value.map((item) => toCel(item, budget, depth + 1));
  }
  const out = new Map<string, unknown>();
  const entries = Object.entries(value);
  budget.items += entries.length;
  for (const [key, item] of entries) out.set(key, toCel(item, budget, depth + 1));
  return out;
}

/** The context as CEL values, with what it measured. */
interface CelContext {
  values: Record<string, unknown>;
  budget: Budget;
}

/** Where a context keeps its conversion (a non-enumerable property, invisible to JSON). */
const CONVERTED = Symbol('colloquy.celContext');

/** Converts a context once (conditions of one scheduling pass share the same context object). */
function celContext(context: ConditionContext): CelContext {
  const holder = context as ConditionContext & { [CONVERTED]?: CelContext };
  let entry = holder[CONVERTED];
  if (!entry) {
    const budget: Budget = {
      left: CONDITION_LIMITS.maxContextValues,
      chars: 0,
      longest: 0,
      items: 0,
    };
    entry = {
      budget,
      values: {
        state: toCel(context.state, budget, 0),
        turn: BigInt(context.turn),
        outputs: toCel(context.outputs, budget, 0),
        executions: toCel(context.executions, budget, 0),
        failures: toCel(context.failures ?? {}, budget, 0),
      },
    };
    Object.defineProperty(holder, CONVERTED, { value: entry, enumerable: false });
  }
  return entry;
}

function hasComprehension(node: ASTNode): boolean {
  const name = node.op === 'rcall' ? (node.args[0] as string) : undefined;
  if (name !== undefined && COMPREHENSIONS.has(name)) return true;
  return children(node).some(hasComprehension);
}

/**
 * Compiles a condition. Throws a ConditionError naming the problem and its position; evaluation
 * errors (a missing key, a type mismatch, a non-boolean result) are ConditionErrors too.
 *
 * @example
 * ```ts
 * const isUnsatisfied = compileCondition('!state.review.satisfied && turn < 10');
 * isUnsatisfied({ state: { review: { satisfied: false } }, turn: 2, outputs: {}, executions: {} }); // true
 * ```
 */
export function compileCondition(expression: string): CompiledCondition {
  const problem = checkCondition(expression);
  if (problem) {
    throw new ConditionError(
      `Condition "${expression}" is invalid at character ${problem.offset + 1}: ${problem.message}.`,
    );
  }
  const evaluate = environment().parse(expression);
  const comprehension = hasComprehension(evaluate.ast);
  return (context) => {
    const { values, budget } = celContext(context);
    const cost = budget.items * Math.max(1, budget.longest);
    if (comprehension && cost > CONDITION_LIMITS.maxComprehensionCost) {
      throw new ConditionError(
        `Condition "${expression}" iterates over a context of ${budget.items} items with strings of up to ` +
          `${budget.longest} characters; evaluating it could take seconds (limit ${CONDITION_LIMITS.maxComprehensionCost} item-characters). ` +
          'Have the agent write a summary flag (e.g. state.review.found == true) and test that instead.',
      );
    }
    let value: unknown;
    try {
      value = evaluate(values);
    } catch (error) {
      throw new ConditionError(
        `Condition "${expression}" failed at character ${offsetOf(error) + 1}: ${summaryOf(error)}. ` +
          'Guard optional keys with has(), e.g. "has(state.review) && state.review.ok".',
        { cause: error },
      );
    }
    if (typeof value !== 'boolean') {
      const shown =
        JSON.stringify(value, (_key, item: unknown) =>
          typeof item === 'bigint'
            ? Number(item)
            : item instanceof Map
              ? Object.fromEntries(item)
              : item,
        ) ?? String(value);
      throw new ConditionError(
        `Condition "${expression}" returned ${shown.slice(0, 200)}, not a boolean. Make it a comparison.`,
      );
    }
    return value;
  };
}

/** How many compiled conditions a runtime keeps (least recently used ones are dropped). */
export const COMPILED_CONDITIONS_MAX = 1000;

/** Compiled conditions of a runtime, by source text. */
const COMPILED = defineRuntimeSlot(
  'ensembles.compiledConditions',
  () => new LRUCache<string, CompiledCondition>({ max: COMPILED_CONDITIONS_MAX }),
);

/**
 * {@link compileCondition}, cached by source text in `runtime` (default: the default runtime), so
 * a condition checked on every scheduling pass is compiled once.
 */
export function cachedCondition(
  expression: string,
  runtime: ColloquyRuntime = defaultRuntime(),
): CompiledCondition {
  const compiled = runtime.use(COMPILED);
  let condition = compiled.get(expression);
  if (!condition) compiled.set(expression, (condition = compileCondition(expression)));
  return condition;
}
