/**
 * Fuzzing ensemble YAML: mutations of the shipped examples and hostile shapes (alias bombs, deep
 * nesting, huge strings, `__proto__` keys, code-looking scalars). Validation must answer every
 * case with a result (issues or an ensemble) within 2 s, never throw anything but an
 * `EnsembleValidationError`, never pollute prototypes and never run code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { ColloquyError } from '../../src/errors.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { validateEnsembleText } from '../../src/ensembles/validate.js';
import {
  checkProperty,
  CODE_PAYLOADS,
  expectClean,
  fuzzRuns,
  fuzzTimeout,
  POLLUTING_KEYS,
  withinBudget,
} from '../setup/fuzz.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/ensembles', import.meta.url));
const examples = fs
  .readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.yaml') && name !== 'colloquy.yaml')
  .map((name) => fs.readFileSync(path.join(EXAMPLES, name), 'utf8'));

/** Validates `text` both ways; throws (failing the property) on anything but a clean answer. */
async function validates(text: string): Promise<void> {
  await withinBudget('validateEnsembleText', () => {
    try {
      const result = validateEnsembleText(text, { file: 'fuzz.yaml', baseDir: EXAMPLES });
      if (!Array.isArray(result.issues)) throw new Error('no issues array');
    } catch (error) {
      throw new Error(`validateEnsembleText threw instead of reporting issues: ${String(error)}`, {
        cause: error,
      });
    }
    try {
      parseEnsemble(text, { file: 'fuzz.yaml', baseDir: EXAMPLES });
    } catch (error) {
      if (!(error instanceof ColloquyError)) throw error;
    }
  });
  expectClean();
}

/** One mutation of a text: cut, insert, duplicate or swap lines, or replace a scalar. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('cut'), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({
    kind: fc.constant('insert'),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        ...CODE_PAYLOADS,
        ...POLLUTING_KEYS.map((k) => `\n${k}:\n  polluted: true\n`),
        '\n  - name: x\n',
        ': ',
        '&a ',
        '*a',
        '!!binary ',
        '!!js/function "function(){}"',
        '\t',
        '{',
        '[',
        "'",
        '"',
        '\udbff',
      ),
    ),
  }),
  fc.record({ kind: fc.constant('dupLine'), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines'), at: fc.nat(), with: fc.nat() }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  const lines = text.split('\n');
  const line = lines.length === 0 ? 0 : m.at % lines.length;
  switch (m.kind) {
    case 'cut':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'dupLine':
      lines.splice(line, 0, lines[line] ?? '');
      return lines.join('\n');
    case 'swapLines': {
      const other = m.with % lines.length;
      [lines[line], lines[other]] = [lines[other]!, lines[line]!];
      return lines.join('\n');
    }
  }
}

const mutated = fc
  .tuple(fc.constantFrom(...examples), fc.array(mutation, { minLength: 1, maxLength: 8 }))
  .map(([text, ms]) => ms.reduce(mutate, text));

/** A billion-laughs document: `levels` anchors, each `width` aliases of the one before. */
function aliasBomb(levels: number, width: number): string {
  const lines = ['a0: &a0 "lol"'];
  for (let l = 1; l <= levels; l++) {
    lines.push(`a${l}: &a${l} [${Array.from({ length: width }, () => `*a${l - 1}`).join(', ')}]`);
  }
  return `name: bomb\nagents:\n  - name: x\n    script: ./scripts/source.js\n${lines.join('\n')}\nextra: *a${levels}\n`;
}

const hostile = fc.oneof(
  fc
    .tuple(fc.integer({ min: 3, max: 12 }), fc.integer({ min: 2, max: 12 }))
    .map(([l, w]) => aliasBomb(l, w)),
  fc
    .integer({ min: 50, max: 3000 })
    .map((depth) => `name: deep\nagents: ${'['.repeat(depth)}${']'.repeat(depth)}\n`),
  fc
    .integer({ min: 50, max: 3000 })
    .map((depth) => `name: deep\nx: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`),
  fc
    .integer({ min: 10_000, max: 300_000 })
    .map(
      (size) =>
        `name: huge\ndescription: "${'x'.repeat(size)}"\nagents:\n  - name: a\n    script: ./scripts/source.js\n`,
    ),
  fc
    .constantFrom(...POLLUTING_KEYS)
    .chain((key) =>
      fc.constantFrom(
        `${key}: {polluted: true}\nname: p\nagents: [{name: a, script: ./scripts/source.js}]\n`,
        `name: p\nagents:\n  - name: a\n    script: ./scripts/source.js\n    ${key}: {polluted: true}\n`,
        `name: p\nagents:\n  - name: a\n    model_profile: x\n    system_prompt: s\n    depends_on: [{agent_name: b, ${key}: {polluted: 1}}]\n  - name: b\n    script: ./scripts/source.js\n`,
        `name: p\nconstructor: {prototype: {polluted: true}}\nagents: [{name: ${key}, script: ./scripts/source.js}]\n`,
        `name: p\nagents:\n  - name: a\n    script: ./scripts/source.js\n  - name: b\n    script: ./scripts/source.js\n    depends_on: [{agent_name: a, condition: "state.${key}.polluted == true"}]\n`,
      ),
    ),
  fc
    .constantFrom(...CODE_PAYLOADS)
    .map(
      (code) =>
        `name: code\nagents:\n  - name: a\n    script: ./scripts/source.js\n  - name: b\n    script: ./scripts/source.js\n    depends_on: [{agent_name: a, condition: ${JSON.stringify(code)}}]\n    system_prompt: ${JSON.stringify(code)}\n`,
    ),
  fc
    // Thousands of agents: validation is linear (2,000 agents take about 0.2 s alone), which
    // leaves the 2 s budget room for a machine under full load.
    .integer({ min: 100, max: 2000 })
    .map(
      (n) =>
        `name: many\nagents:\n${Array.from({ length: n }, (_, i) => `  - {name: a${i}, script: ./scripts/source.js}`).join('\n')}\n`,
    ),
  fc.string({ unit: 'binary', maxLength: 400 }),
);

describe('ensemble YAML fuzzing', () => {
  const mutatedRuns = fuzzRuns(200);
  it(
    'mutations of the examples validate to a result within 2 s, without pollution or code execution',
    () => checkProperty('ensemble-yaml-mutations', mutated, validates, 200),
    fuzzTimeout(mutatedRuns),
  );

  const hostileRuns = fuzzRuns(60);
  it(
    'hostile shapes (alias bombs, deep nesting, huge strings, __proto__ keys) are answered, not obeyed',
    () => checkProperty('ensemble-yaml-hostile', hostile, validates, 60),
    fuzzTimeout(hostileRuns, 200),
  );
});
