import { describe, expect, it } from 'vitest';
import { EnsembleValidationError, parseEnsemble } from '../../src/ensembles/load.js';
import { formatEnsembleIssue, validateEnsembleText } from '../../src/ensembles/validate.js';

const BROKEN = `name: broken
agents:
  - name: a
    script: ./a.js
    model_profile: fast
  - name: b
    depends_on: [ghost]
  - name: c
    model_profile: nope
    depends_on:
      - agent_name: a
        condition: 'state.x == (1 +'
  - name: d
    script: ./d.js
    depends_on: [e]
    colour: red
  - name: e
    script: ./e.js
    depends_on: [d]
`;

describe('validateEnsembleText', () => {
  const { issues } = validateEnsembleText(BROKEN, { file: 'broken.yaml', profileNames: ['fast'] });
  const lines = issues.map(formatEnsembleIssue);

  it('collects every error at once, each with file:line:column', () => {
    expect(lines).toEqual([
      expect.stringMatching(/^broken\.yaml:5:20: agents\[0\]\.model_profile: .*not both/),
      expect.stringMatching(/^broken\.yaml:6:11: agents\[1\]\.name: .*needs exactly one of script/),
      expect.stringMatching(/^broken\.yaml:7:18: agents\[1\]\.depends_on\[0\]: depends on "ghost"/),
      expect.stringMatching(
        /^broken\.yaml:9:20: agents\[2\]\.model_profile: profile "nope" does not exist/,
      ),
      expect.stringMatching(
        /^broken\.yaml:12:36: agents\[2\]\.depends_on\[0\]\.condition: CEL syntax error.*character 16/,
      ),
      expect.stringMatching(
        /^broken\.yaml:13:11: agents\[3\]\.name: unconditional dependency cycle d -> e -> d/,
      ),
      expect.stringMatching(/^broken\.yaml:16:5: agents\[3\]\.colour: unknown key "colour"/),
    ]);
  });

  it('parseEnsemble throws ENSEMBLE_INVALID with all issues', () => {
    try {
      parseEnsemble(BROKEN, { file: 'broken.yaml', profileNames: ['fast'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnsembleValidationError);
      expect((error as EnsembleValidationError).code).toBe('ENSEMBLE_INVALID');
      expect((error as EnsembleValidationError).issues).toHaveLength(7);
    }
  });

  it('reports YAML syntax errors with their position', () => {
    const { issues } = validateEnsembleText('name: x\nagents:\n  - name: [a\n', {
      file: 'bad.yaml',
    });
    expect(issues[0]).toMatchObject({ file: 'bad.yaml', path: '(yaml)' });
    expect(issues[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('reports type errors from the schema with the field and the expectation', () => {
    const { issues } = validateEnsembleText(
      'name: x\nagents:\n  - name: a\n    script: ./a.js\nconversation_limits:\n  max_total_turns: -1\n',
      { file: 'f.yaml' },
    );
    expect(formatEnsembleIssue(issues[0]!)).toMatch(
      /^f\.yaml:6:20: conversation_limits\.max_total_turns: .*(>0|positive|greater)/i,
    );
  });

  it('accepts llm-orc spellings (dependencies, prompt) and folds them', () => {
    const { issues, ensemble } = validateEnsembleText(
      'name: x\nagents:\n  - name: a\n    script: ./a.js\n  - name: b\n    model_profile: fast\n    prompt: Be brief.\n    dependencies:\n      - agent_name: a\n',
      { profileNames: ['fast'] },
    );
    expect(issues).toEqual([]);
    expect(ensemble!.agents[1]).toMatchObject({
      kind: 'llm',
      system_prompt: 'Be brief.',
      depends_on: [{ agent_name: 'a', requires_all: true, max_executions: 1 }],
    });
  });

  it('flags unknown agents in max_agent_executions', () => {
    const { issues } = validateEnsembleText(
      'name: x\nagents:\n  - { name: a, script: ./a.js }\nconversation_limits:\n  max_agent_executions: { zed: 2 }\n',
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringContaining('"zed" is not an agent'),
    ]);
  });
});
