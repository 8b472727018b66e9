import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { agentExecution, agentKind } from '../../src/ensembles/schema.js';
import { validateEnsembleText } from '../../src/ensembles/validate.js';

describe('execution keys of the ensemble format', () => {
  it('normalizes fan_out, input_key, when, ensemble, loop and on_failure', () => {
    const ensemble = parseEnsemble(
      `name: x
on_failure: stop
agents:
  - { name: a, script: s }
  - { name: b, script: s, depends_on: [a], fan_out: true, input_key: items, when: '\${a.ok}', on_failure: continue }
  - { name: c, ensemble: other, depends_on: [b] }
  - name: d
    loop: { body: body, until: '\${done} == true', max_iterations: 3, carry: '\${draft}' }
`,
    );
    const [a, b, c, d] = ensemble.agents;
    expect([a!.kind, b!.kind, c!.kind, d!.kind]).toEqual(['script', 'script', 'ensemble', 'loop']);
    expect(a).toMatchObject({ fan_out: false, on_failure: 'stop' });
    expect(b).toMatchObject({
      fan_out: true,
      input_key: 'items',
      when: '${a.ok}',
      on_failure: 'continue',
    });
    expect(c).toMatchObject({ ensemble: 'other', on_failure: 'stop' });
    expect(d!.loop).toEqual({
      body: 'body',
      until: '${done} == true',
      max_iterations: 3,
      carry: '${draft}',
    });
  });

  it('defaults: on_failure continue, fan_out false, nothing else set', () => {
    expect(agentExecution({}, undefined)).toEqual({ fan_out: false, on_failure: 'continue' });
    expect(agentKind({})).toBe('llm');
    expect(agentKind({ script: 'x', loop: {} })).toBe('script');
  });

  it('ensemble and loop agents need neither script nor model_profile', () => {
    const { issues } = validateEnsembleText(
      'name: x\nagents:\n  - { name: c, ensemble: other }\n  - { name: l, loop: { body: b, until: "${ok}", max_iterations: 1 } }\n',
      { file: 'x.yaml' },
    );
    expect(issues).toEqual([]);
  });

  it('reports invalid CEL in when and until with the field and position, and bad values', () => {
    const { issues } = validateEnsembleText(
      `name: x
agents:
  - { name: a, script: s, when: 'state.a. ==' }
  - { name: l, loop: { body: b, until: 'nope(', max_iterations: 0 } }
  - { name: f, script: s, on_failure: sometimes }
`,
      { file: 'x.yaml' },
    );
    const shown = issues.map((issue) => `${issue.path}: ${issue.message}`);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^agents\[0\]\.when: invalid CEL at character 10/),
        expect.stringMatching(/^agents\[1\]\.loop\.until: invalid CEL/),
        expect.stringMatching(/^agents\[1\]\.loop\.max_iterations/),
        expect.stringMatching(/^agents\[2\]\.on_failure/),
      ]),
    );
  });
});
