import { describe, expect, it } from 'vitest';
import {
  dependenciesSkipped,
  evaluateReferencePredicate,
  guardAllows,
  isReferencePredicate,
  parseLiteral,
  untilHolds,
  walk,
} from '../../src/ensembles/guards.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { conditionContext } from '../../src/ensembles/scheduler.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';

describe('llm-orc predicates (${ref} and ${ref} == literal)', () => {
  it('parses literals: booleans, null, numbers, quoted strings, else the text', () => {
    expect([
      parseLiteral('true'),
      parseLiteral('false'),
      parseLiteral('null'),
      parseLiteral('3.5'),
      parseLiteral('"a b"'),
      parseLiteral("'x'"),
      parseLiteral('word'),
      parseLiteral(''),
    ]).toEqual([true, false, null, 3.5, 'a b', 'x', 'word', '']);
  });

  it('walks dotted paths through objects and JSON text; null when a step is missing', () => {
    const value = { a: { b: [1, 2] }, response: '{"ok": true}' };
    expect(walk(value, ['a', 'b'])).toEqual([1, 2]);
    expect(walk(value, ['response', 'ok'])).toBe(true);
    expect(walk(value, ['a', 'missing'])).toBeNull();
    expect(walk(value, ['a', 'b', 'length'])).toBeNull();
    expect(walk({ s: 'not json' }, ['s', 'x'])).toBeNull();
    expect(walk(value, ['constructor'])).toBeNull();
  });

  it('evaluates truthiness and equality', () => {
    const values: Record<string, unknown> = { ok: true, no: false, n: 3, list: [], name: 'x' };
    const resolve = ([key]: string[]) => values[key!] ?? null;
    expect(evaluateReferencePredicate('${ok}', resolve)).toBe(true);
    expect(evaluateReferencePredicate('${no}', resolve)).toBe(false);
    expect(evaluateReferencePredicate('${list}', resolve)).toBe(false);
    expect(evaluateReferencePredicate('${missing}', resolve)).toBe(false);
    expect(evaluateReferencePredicate('${n} == 3', resolve)).toBe(true);
    expect(evaluateReferencePredicate('${name} == "x"', resolve)).toBe(true);
    expect(evaluateReferencePredicate('${no} == false', resolve)).toBe(true);
    expect(evaluateReferencePredicate('${n} == 4', resolve)).toBe(false);
    expect(isReferencePredicate('${a}')).toBe(true);
    expect(isReferencePredicate('state.a')).toBe(false);
  });

  it('until: over the body output, in either notation', () => {
    expect(untilHolds('${done} == true', { done: true }, 1)).toBe(true);
    expect(untilHolds('${score.value}', { score: { value: 0 } }, 1)).toBe(false);
    expect(untilHolds('state.done && turn >= 2', { done: true }, 2)).toBe(true);
    expect(untilHolds('state.done && turn >= 2', { done: true }, 1)).toBe(false);
  });
});

describe('when: guards against the committed state', () => {
  const ensemble = parseEnsemble(
    'name: g\nagents:\n  - { name: gate, script: x }\n' +
      "  - { name: ref, script: x, depends_on: [gate], when: '${gate.ok}' }\n" +
      '  - { name: cel, script: x, depends_on: [gate], when: "outputs.gate.count > 2" }\n' +
      '  - { name: free, script: x, depends_on: [gate] }\n',
  );
  const agent = (name: string) => ensemble.agents.find((a) => a.name === name)!;

  it('a ${...} guard and a CEL guard read the latest outputs', () => {
    const state = createConversationState();
    recordTurn(state, {
      agent_name: 'gate',
      input_data: { input: '', context: {} },
      output_data: { ok: true, count: 2 },
      execution_time: 0,
      timestamp: 't',
    });
    const context = () => conditionContext(state);
    expect(guardAllows(agent('ref'), state, context)).toBe(true);
    expect(guardAllows(agent('cel'), state, context)).toBe(false);
    expect(guardAllows(agent('free'), state, context)).toBe(true);
  });

  it('agents whose every dependency was skipped are skipped too', () => {
    const state = createConversationState();
    expect(dependenciesSkipped(agent('ref'), state)).toBe(false);
    recordTurn(state, {
      agent_name: 'gate',
      input_data: { input: '', context: {} },
      output_data: {},
      execution_time: 0,
      timestamp: 't',
      status: 'skipped',
    });
    expect(dependenciesSkipped(agent('ref'), state)).toBe(true);
    expect(dependenciesSkipped(agent('gate'), state)).toBe(false);
  });
});
