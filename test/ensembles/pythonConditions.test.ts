import { describe, expect, it } from 'vitest';
import { compileCondition } from '../../src/ensembles/conditions.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import {
  dependencyConditionAsCel,
  isPythonCondition,
  translatePythonCondition,
} from '../../src/ensembles/pythonConditions.js';
import { validateEnsembleText } from '../../src/ensembles/validate.js';

const cel = (python: string) => {
  const translated = translatePythonCondition(python, 'outputs.dep');
  if (!('cel' in translated)) throw new Error(translated.problem.message);
  return translated.cel;
};

/** Evaluates the translation against `outputs.dep` = output (and turn). */
const holds = (python: string, output: Record<string, unknown>, turn = 1) =>
  compileCondition(cel(python))({
    state: {},
    turn,
    outputs: { dep: output },
    executions: {},
  });

describe('ADR-005 Python conditions translated to CEL', () => {
  it('tells Python from CEL by the names only Python uses', () => {
    expect(isPythonCondition("context.get('x', False)")).toBe(true);
    expect(isPythonCondition('turn_count < 3 and True')).toBe(true);
    expect(isPythonCondition('has(state.x) && state.x')).toBe(false);
    expect(isPythonCondition("state.note == 'and or not'")).toBe(false);
    expect(isPythonCondition('outputs.a.context == 1')).toBe(false);
  });

  it("context.get('key', default) reads the dependency's output, with its default when missing", () => {
    expect(cel("context.get('needs_clarification', False)")).toBe(
      '(has(outputs.dep.needs_clarification) ? outputs.dep.needs_clarification : false)',
    );
    expect(holds("context.get('needs_clarification', False)", { needs_clarification: true })).toBe(
      true,
    );
    expect(holds("context.get('needs_clarification', False)", {})).toBe(false);
  });

  it('comparisons, and/or/not, True/False/None, turn_count, in, is None, len()', () => {
    const output = { score: 0.9, done: false, tags: ['urgent'], note: null };
    expect(holds("context['score'] > 0.8 and not context.get('done', True)", output)).toBe(true);
    expect(holds("context['score'] >= 0.95 or turn_count < 2", output, 1)).toBe(true);
    expect(holds("context['score'] >= 0.95 or turn_count < 2", output, 5)).toBe(false);
    expect(holds("'urgent' in context['tags'] and 'x' not in context['tags']", output)).toBe(true);
    expect(holds("context['note'] is None and context.get('missing') is not None", output)).toBe(
      false,
    );
    expect(holds("len(context['tags']) == 1 and context['score'] != -1", output)).toBe(true);
    expect(holds("'score' in context", output)).toBe(true);
    expect(holds("context.get('done', True) == False", output)).toBe(true);
  });

  it('is never evaluated as Python: calls and attributes outside the subset are errors with the CEL to write', () => {
    for (const python of [
      "__import__('os').system('touch /tmp/pwned') or True",
      "context.get('a', {}).get('b')",
      'context.items()',
      "context['x'] if True else False",
      '1 < turn_count < 3',
    ]) {
      const result = translatePythonCondition(python, 'outputs.dep');
      expect(result, python).toHaveProperty('problem');
      if (!('problem' in result)) continue;
      expect(result.problem.message).toMatch(
        /outside the subset.*Write it in CEL instead, e\.g\.: /,
      );
    }
    const nested = translatePythonCondition("context.get('a', {}).get('b')", 'outputs.dep');
    expect('problem' in nested && nested.problem.suggestion).toBe(
      '(has(outputs.dep.a) ? outputs.dep.a : {}).b',
    );
  });

  it('validate reports a condition outside the subset at its position, with the CEL to write', () => {
    const text =
      'name: p\nagents:\n  - { name: a, script: ./a.js }\n  - name: b\n    script: ./b.js\n' +
      "    depends_on:\n      - agent_name: a\n        condition: \"context.get('x').upper() == 'Y'\"\n";
    const { issues } = validateEnsembleText(text, { file: 'p.yaml' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 8, path: 'agents[1].depends_on[0].condition' });
    expect(issues[0]!.message).toMatch(/the method "\.upper".*e\.g\.: .*outputs\.a\.x/);
  });

  it('validate shows the translation as a note; the loaded ensemble runs the CEL', () => {
    const text =
      'name: p\nagents:\n  - { name: a, script: ./a.js }\n  - name: b\n    script: ./b.js\n' +
      '    dependencies:\n      - agent_name: a\n        condition: "context.get(\'go\', False)"\n';
    const { issues, notes } = validateEnsembleText(text, { file: 'p.yaml' });
    expect(issues).toEqual([]);
    expect(notes).toEqual([
      expect.objectContaining({
        line: 8,
        path: 'agents[1].dependencies[0].condition',
        message:
          'ADR-005 Python condition, run as the CEL: (has(outputs.a.go) ? outputs.a.go : false)',
      }),
    ]);
    const ensemble = parseEnsemble(text, { file: 'p.yaml' });
    expect(ensemble.agents[1]!.depends_on[0]!.condition).toBe(
      '(has(outputs.a.go) ? outputs.a.go : false)',
    );
  });

  it('CEL conditions pass through unchanged', () => {
    expect(dependencyConditionAsCel('!state.review.satisfied', 'review')).toEqual({
      cel: '!state.review.satisfied',
      translated: false,
    });
  });
});
