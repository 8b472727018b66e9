import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { unconditionalCycles, validateEnsembleText } from '../../src/ensembles/validate.js';

const LLM_ORC_FILE = `name: review
description: An llm-orc ensemble with every kind of agent
task: Review the plan
serves: code-seat
topaz_skill: writing_quality
validation:
  structural: { required_agents: [count] }
test_mode: { enabled: true }
agents:
  - name: count
    script: primitives/data-transform/json_extract.py
    parameters: { json_data: '{"a": 1}', fields: [a] }
    timeout_seconds: 5
  - name: inline
    model: llama3
    provider: ollama
    temperature: 0.2
    max_tokens: 300
    options: { num_ctx: 4096 }
    output_format: json
    input_scope: dependencies
    depends_on: [count]
  - name: sub
    ensemble: other
    depends_on: [inline]
  - name: each
    script: scripts/each.py
    fan_out: true
    input_key: items
    when: '\${count.success}'
    depends_on: [count]
  - name: again
    loop: { body: other, until: '\${done}', max_iterations: 3 }
  - name: route
    dispatch: '\${count.target}'
    depends_on: [count]
`;

describe('llm-orc keys', () => {
  it('accepts every key of llm-orc agents and keeps them on the normalized ensemble', () => {
    const { issues, ensemble } = validateEnsembleText(LLM_ORC_FILE, { file: 'review.yaml' });
    expect(issues).toEqual([]);
    expect(ensemble!.default_task).toBe('Review the plan');
    expect(ensemble!.llmorc).toEqual({
      task: 'Review the plan',
      serves: 'code-seat',
      topaz_skill: 'writing_quality',
      validation: { structural: { required_agents: ['count'] } },
      test_mode: { enabled: true },
    });
    const [count, inline] = ensemble!.agents;
    expect(count!.llmorc).toEqual({ parameters: { json_data: '{"a": 1}', fields: ['a'] } });
    expect(count!.config).toEqual({ json_data: '{"a": 1}', fields: ['a'] });
    expect(inline!.llmorc).toEqual({
      model: 'llama3',
      provider: 'ollama',
      temperature: 0.2,
      max_tokens: 300,
      options: { num_ctx: 4096 },
      output_format: 'json',
      input_scope: 'dependencies',
    });
  });

  it('model needs provider and the reverse; one source per agent; fan_out needs depends_on', () => {
    const text = `name: x
agents:
  - name: a
    model: llama3
  - name: b
    provider: ollama
    model_profile: p
  - name: c
    script: ./c.js
    ensemble: other
  - name: d
    script: ./d.js
    fan_out: true
`;
    const messages = validateEnsembleText(text, { file: 'x.yaml' }).issues.map(
      (issue) => `${issue.path}: ${issue.message}`,
    );
    expect(messages).toEqual([
      'agents[0].model: model needs provider (e.g. provider: ollama); or use model_profile',
      'agents[1].provider: provider needs model (e.g. model: llama3); or use model_profile',
      'agents[2].ensemble: an agent has one of script, model_profile, model, ensemble, loop, dispatch; it has script and ensemble: remove all but one (agent "c")',
      'agents[3].fan_out: fan_out: true needs depends_on naming the agent whose output is the array to fan out over',
    ]);
  });

  it('unknown top-level keys are errors for Colloquy files and kept quietly for llm-orc files', () => {
    const text = 'name: x\nauthor_notes: hi\nagents:\n  - name: a\n    script: ./a.js\n';
    expect(validateEnsembleText(text, { file: 'x.yaml' }).issues.map((i) => i.message)).toEqual([
      'unknown key "author_notes" (remove it or check its spelling)',
    ]);
    expect(validateEnsembleText(text, { file: 'x.yaml', llmOrc: true }).issues).toEqual([]);
    expect(() =>
      parseEnsemble(text, { file: '/p/.llm-orc/ensembles/x.yaml', baseDir: '/p' }),
    ).not.toThrow();
  });

  it('unknown agent keys stay errors even in llm-orc files (llm-orc forbids them too)', () => {
    const text = 'name: x\nagents:\n  - name: a\n    script: ./a.js\n    colour: red\n';
    expect(
      validateEnsembleText(text, { file: 'x.yaml', llmOrc: true }).issues.map((i) => i.message),
    ).toEqual(['unknown key "colour" (remove it or check its spelling)']);
  });

  it('reports unknown profiles with a short list and where to define them', () => {
    const names = Array.from({ length: 20 }, (_, i) => `p${i}`);
    const text = 'name: x\nagents:\n  - name: a\n    model_profile: nope\n';
    const [issue] = validateEnsembleText(text, {
      file: 'x.yaml',
      profileNames: names,
      llmOrc: true,
    }).issues;
    expect(issue!.message).toBe(
      'profile "nope" does not exist (known: p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, … (20 in all; see colloquy list-profiles)); define it under model_profiles: in .llm-orc/config.yaml or a file in .llm-orc/profiles/',
    );
  });

  it('checkScript problems are reported at the script field', () => {
    const text = 'name: x\nagents:\n  - name: a\n    script: ./gone.py\n';
    const { issues } = validateEnsembleText(text, {
      file: 'x.yaml',
      checkScript: (script) => (script === './gone.py' ? 'script file does not exist' : undefined),
    });
    expect(issues).toEqual([
      {
        file: 'x.yaml',
        line: 4,
        column: 13,
        path: 'agents[0].script',
        message: 'script file does not exist',
      },
    ]);
  });
});

describe('hostile files', () => {
  it('an unresolved alias is an issue with its position, not an exception', () => {
    const text = 'name: x\nagents:\n  - name: a\n    script: *missing\n';
    const { issues } = validateEnsembleText(text, { file: 'x.yaml' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 'x.yaml', line: 4, column: 13, path: '(yaml)' });
    expect(issues[0]!.message).toMatch(
      /^invalid YAML: Unresolved alias.*missing.*Define every anchor/,
    );
  });

  it('a 6,000-agent chain is checked without overflowing the stack, and its cycle found', () => {
    const agents = Array.from({ length: 6000 }, (_, i) => ({
      name: `a${i}`,
      depends_on: i === 0 ? ['a5999'] : [`a${i - 1}`],
    }));
    const started = performance.now();
    const cycles = unconditionalCycles(agents);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.cycle).toHaveLength(6001);
    const lines = ['name: chain', 'agents:'];
    for (let i = 0; i < 6000; i++)
      lines.push(
        `  - name: a${i}`,
        '    script: ./s.js',
        ...(i ? [`    depends_on: [a${i - 1}]`] : []),
      );
    const { issues } = validateEnsembleText(lines.join('\n'), { file: 'chain.yaml' });
    expect(issues).toEqual([]);
  });

  it('finds each cycle of a small graph once, with conditional edges ignored', () => {
    const cycles = unconditionalCycles([
      { name: 'a', depends_on: ['b'] },
      { name: 'b', depends_on: ['a'] },
      { name: 'c', depends_on: [{ agent_name: 'a', condition: 'true' }] },
      { name: 'd', depends_on: ['d'] },
    ]);
    expect(cycles.map((c) => c.cycle)).toEqual([
      ['a', 'b', 'a'],
      ['d', 'd'],
    ]);
  });

  it('20,000 keys fail fast with a clear message before parsing', () => {
    const text = `name: x\nagents:\n  - name: a\n    script: ./a.js\n    parameters:\n${Array.from(
      { length: 20_000 },
      (_, i) => `      k${i}: ${i}`,
    ).join('\n')}\n`;
    const started = performance.now();
    const { issues } = validateEnsembleText(text, { file: 'big.yaml' });
    expect(performance.now() - started).toBeLessThan(500);
    expect(issues).toEqual([
      {
        file: 'big.yaml',
        line: 2006,
        column: 1,
        path: '(yaml)',
        message:
          'a mapping has more than 2000 keys (line 2006); split it into smaller mappings or files',
      },
    ]);
  });
});
