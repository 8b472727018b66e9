import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';

/** Parses one-agent-list YAML and returns the error it throws (fails the test when it parses). */
function problem(agents: string): { code: string; message: string } {
  try {
    parseEnsemble(`name: x\nagents:\n${agents}`);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error(`parsed without error:\n${agents}`);
}

describe('loader error paths (llm-orc keys and execution keys)', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a loop without until',
      '  - { name: a, loop: { body: b, max_iterations: 2 } }\n',
      /:3:22: agents\[0\]\.loop\.until: .*expected string/,
    ],
    [
      'a loop with max_iterations 0',
      '  - { name: a, loop: { body: b, until: "turn > 1", max_iterations: 0 } }\n',
      /agents\[0\]\.loop\.max_iterations: Too small/,
    ],
    [
      'a loop whose until is not valid CEL',
      '  - { name: a, loop: { body: b, until: "x", max_iterations: 2 } }\n',
      /agents\[0\]\.loop\.until: invalid CEL at character 1: Unknown variable: x/,
    ],
    [
      'an agent that is both a script and a sub-ensemble',
      '  - { name: a, script: s.js, ensemble: other }\n',
      /agents\[0\]\.ensemble: an agent has one of .*it has script and ensemble: remove all but one/,
    ],
    [
      'an agent that is both a script and a loop',
      '  - { name: a, script: s.js, loop: { body: b, until: "turn > 1", max_iterations: 2 } }\n',
      /it has script and loop/,
    ],
    [
      'fan_out without a dependency',
      '  - { name: a, script: s.js, fan_out: true }\n',
      /agents\[0\]\.fan_out: fan_out: true needs depends_on/,
    ],
    [
      'an empty input_key',
      '  - { name: a, script: s.js, input_key: "" }\n',
      /agents\[0\]\.input_key: Too small/,
    ],
    [
      'a when: guard with a CEL syntax error',
      '  - { name: a, script: s.js, when: "state.(" }\n',
      /:3:36: agents\[0\]\.when: invalid CEL at character 7/,
    ],
    [
      'an inline model without provider',
      '  - { name: a, model: m }\n',
      /agents\[0\]\.model: model needs provider/,
    ],
    [
      'an unknown input_scope',
      '  - { name: a, script: s.js, input_scope: everything }\n',
      /agents\[0\]\.input_scope: .*"dependencies"/,
    ],
    [
      'a temperature above 2',
      '  - { name: a, script: s.js, temperature: 5 }\n',
      /agents\[0\]\.temperature: Too big/,
    ],
    [
      'an unknown script_protocol',
      '  - { name: a, script: s.js, script_protocol: other }\n',
      /agents\[0\]\.script_protocol: .*"llm-orc"\|"colloquy"/,
    ],
    [
      'a dependency on an unknown agent',
      '  - { name: a, script: s.js, depends_on: [b] }\n',
      /depends on "b", which is not an agent of this ensemble \(agents: a\)/,
    ],
    [
      'a name used twice',
      '  - { name: a, script: s.js }\n  - { name: a, script: s.js }\n',
      /:4:13: agents\[1\]\.name: agent name "a" is used twice/,
    ],
    [
      'an unconditional cycle',
      '  - { name: a, script: s.js, depends_on: [b] }\n  - { name: b, script: s.js, depends_on: [a] }\n',
      /unconditional dependency cycle a -> b -> a/,
    ],
    [
      'an unknown key',
      '  - { name: a, script: s.js, bogus_key: 1 }\n',
      /agents\[0\]\.bogus_key: unknown key "bogus_key"/,
    ],
    [
      'a zero timeout on a sub-ensemble agent',
      '  - { name: a, ensemble: e, timeout_seconds: 0 }\n',
      /agents\[0\]\.timeout_seconds: Too small/,
    ],
  ];

  for (const [what, yaml, message] of cases)
    it(`rejects ${what}, naming the line, the field and the fix`, () => {
      const error = problem(yaml);
      expect(error.code).toBe('ENSEMBLE_INVALID');
      expect(error.message).toMatch(message);
    });

  it('reports every problem of a file at once, counted', () => {
    const error = problem(
      '  - { name: a, script: s.js, temperature: 5 }\n  - { name: b, model: m, depends_on: [zz] }\n',
    );
    expect(error.message).toMatch(/is invalid \(3 problems\)/);
    expect(error.message).toMatch(/agents\[0\]\.temperature/);
    expect(error.message).toMatch(/agents\[1\]\.model/);
    expect(error.message).toMatch(/agents\[1\]\.depends_on\[0\]/);
  });

  it('accepts the same keys when they are valid', () => {
    const ensemble = parseEnsemble(
      'name: x\nagents:\n  - { name: list, script: s.js }\n' +
        '  - { name: each, script: e.js, depends_on: [list], fan_out: true, input_key: items, when: "turn >= 0" }\n' +
        '  - { name: l, loop: { body: b, until: "turn > 1", max_iterations: 2 }, timeout_seconds: 5 }\n',
    );
    expect(ensemble.agents.map((agent) => agent.kind)).toEqual(['script', 'script', 'loop']);
    expect(ensemble.agents[1]).toMatchObject({
      fan_out: true,
      input_key: 'items',
      when: 'turn >= 0',
    });
    expect(ensemble.agents[2]!.timeout_seconds).toBe(5);
  });
});
