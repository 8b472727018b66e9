/**
 * Fuzzing CEL conditions: random text and grammar-built expressions (member access with
 * `__proto__`/`constructor`, comprehensions, code-looking strings) against random JSON contexts.
 * `checkCondition` must answer (null or a problem), `compileCondition` must compile what was
 * accepted, and evaluation must return a boolean or throw `ConditionError`, within 2 s, without
 * pollution or code execution.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkCondition,
  compileCondition,
  ConditionError,
  type ConditionContext,
} from '../../src/ensembles/conditions.js';
import {
  checkProperty,
  CODE_PAYLOADS,
  expectClean,
  fuzzRuns,
  fuzzTimeout,
  POLLUTING_KEYS,
  withinBudget,
} from '../setup/fuzz.js';

const name = fc.oneof(
  fc.constantFrom('a', 'review', 'satisfied', 'score', 'items', ...POLLUTING_KEYS),
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/),
);
const literal = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => n.toString()),
  fc.constantFrom('true', 'false', 'null', '[]', '{}', "''", 'b"x"', '1u'),
  fc
    .oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...CODE_PAYLOADS))
    .map((s) => JSON.stringify(s)),
);

/** Expressions built from CEL's grammar (they need not type-check). */
const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.constantFrom('state', 'turn', 'outputs', 'executions', 'process', 'globalThis', 'this'),
    fc.tuple(tie('expr'), name).map(([e, n]) => `${e}.${n}`),
    fc
      .tuple(
        tie('expr'),
        fc.oneof(
          literal,
          name.map((n) => JSON.stringify(n)),
        ),
      )
      .map(([e, k]) => `${e}[${k}]`),
    fc
      .tuple(
        tie('expr'),
        fc.constantFrom(
          '==',
          '!=',
          '<',
          '<=',
          '>',
          '>=',
          '&&',
          '||',
          '+',
          '-',
          '*',
          '/',
          '%',
          'in',
        ),
        tie('expr'),
      )
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(fc.constantFrom('!', '-'), tie('expr')).map(([op, e]) => `${op}${e}`),
    tie('expr').map((e) => `(${e})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
    fc
      .tuple(
        fc.constantFrom(
          'size',
          'has',
          'int',
          'string',
          'double',
          'type',
          'matches',
          'eval',
          'require',
        ),
        tie('expr'),
      )
      .map(([f, e]) => `${f}(${e})`),
    fc
      .tuple(
        tie('expr'),
        fc.constantFrom('all', 'exists', 'exists_one', 'map', 'filter'),
        name,
        tie('expr'),
      )
      .map(([e, m, v, body]) => `${e}.${m}(${v}, ${body})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `[${a}, ${b}]`),
    fc.tuple(name, tie('expr')).map(([k, v]) => `{${JSON.stringify(k)}: ${v}}`),
  ),
})).expr;

const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const record = fc.oneof(
  fc.dictionary(name, json, { maxKeys: 6 }),
  fc
    .constantFrom(...POLLUTING_KEYS)
    .map(
      (k) =>
        JSON.parse(`{"${k}": {"polluted": true, "satisfied": true}}`) as Record<string, unknown>,
    ),
);
const context: fc.Arbitrary<ConditionContext> = fc.record({
  state: record,
  turn: fc.nat({ max: 1000 }),
  outputs: record,
  executions: fc.dictionary(name, fc.nat({ max: 10 }), { maxKeys: 4 }),
});

async function evaluates([text, ctx]: [string, ConditionContext]): Promise<void> {
  await withinBudget('condition', () => {
    const problem = checkCondition(text);
    if (problem) {
      expect(typeof problem.message).toBe('string');
      expect(() => compileCondition(text)).toThrow(ConditionError);
      return;
    }
    const condition = compileCondition(text);
    try {
      expect(typeof condition(ctx)).toBe('boolean');
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
    }
  });
  expectClean();
}

describe('CEL condition fuzzing', () => {
  const runs = fuzzRuns(600);
  it(
    'grammar-built expressions on random contexts: a boolean or a ConditionError, nothing else',
    () => checkProperty('cel-grammar', fc.tuple(expression, context), evaluates, 600),
    fuzzTimeout(runs, 5),
  );

  it(
    'arbitrary text is rejected or compiled, never thrown through',
    () =>
      checkProperty(
        'cel-text',
        fc.tuple(
          fc.oneof(
            fc.string({ maxLength: 80 }),
            fc.string({ unit: 'binary', maxLength: 80 }),
            fc.constantFrom(...CODE_PAYLOADS),
          ),
          context,
        ),
        evaluates,
        400,
      ),
    fuzzTimeout(fuzzRuns(400), 5),
  );
});
