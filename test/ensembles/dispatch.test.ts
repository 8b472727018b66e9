// dispatch: the notation (src/ensembles/dispatch.ts) and its validation (validate.ts, the
// validate command). Runs are in dispatch.run.test.ts, resume in dispatch.resume.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerEnsembleCommands } from '../../src/cli/commands/ensembles.js';
import { checkSiblingEnsemble } from '../../src/ensembles/children.js';
import { isDispatchName, parseDispatch, showValue } from '../../src/ensembles/dispatch.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { formatEnsembleIssue, validateEnsembleText } from '../../src/ensembles/validate.js';
import { tempDir } from './helpers.js';

/** `path: message` of every issue of the YAML (as file x.yaml). */
function problems(yaml: string, options: Parameters<typeof validateEnsembleText>[1] = {}) {
  return validateEnsembleText(yaml, { file: 'x.yaml', ...options }).issues.map(
    (issue) => `${issue.path}: ${issue.message}`,
  );
}

describe('the dispatch notation', () => {
  it('reads ${agent.field} as a reference (dotted paths too) and anything without ${ as a name', () => {
    expect(parseDispatch('${route.target}')).toEqual({
      kind: 'reference',
      agent: 'route',
      path: ['target'],
    });
    expect(parseDispatch(' ${ pick.slots.gen } ')).toEqual({
      kind: 'reference',
      agent: 'pick',
      path: ['slots', 'gen'],
    });
    expect(parseDispatch('code-seat')).toEqual({ kind: 'literal', name: 'code-seat' });
    expect(parseDispatch('parts/seat.yaml')).toEqual({ kind: 'literal', name: 'parts/seat.yaml' });
  });

  it('refuses any other use of ${, naming the form it takes', () => {
    for (const bad of ['${route}', 'seat-${route.target}', '${route.target} == 1', '${.x}'])
      expect(parseDispatch(bad), bad).toEqual({
        problem: expect.stringContaining('${agent.field}'),
      });
  });

  it('a value resolved at run time must be a plain name: no absolute path, no ..', () => {
    for (const name of ['code-seat', 'testing/simple', 'a.b_c', '_x', 'seat2'])
      expect(isDispatchName(name), name).toBe(true);
    for (const bad of ['', '../secret', '/etc/x', 'a/../b', 'a//b', 'a b', 'a\\b', 42, null, {}])
      expect(isDispatchName(bad), String(bad)).toBe(false);
  });

  it('shows values as short JSON', () => {
    expect(showValue('x')).toBe('"x"');
    expect(showValue(undefined)).toBe('undefined');
    expect(showValue('y'.repeat(200))).toHaveLength(80);
  });
});

describe('validating dispatch agents', () => {
  it('normalizes to kind dispatch, keeping the target as written', () => {
    const ensemble = parseEnsemble(
      'name: x\nagents:\n  - { name: route, script: r.js }\n' +
        "  - { name: seat, dispatch: '${route.target}', depends_on: [route], input_key: task }\n" +
        '  - { name: fixed, dispatch: other }\n',
    );
    const [, seat, fixed] = ensemble.agents;
    expect(seat).toMatchObject({
      kind: 'dispatch',
      dispatch: '${route.target}',
      input_key: 'task',
    });
    expect(seat!.llmorc).toBeUndefined();
    expect(fixed).toMatchObject({ kind: 'dispatch', dispatch: 'other' });
  });

  it('dispatch excludes model_profile, script and ensemble, naming the agent and the field', () => {
    const text =
      'name: x\nagents:\n' +
      '  - { name: a, model_profile: p, dispatch: other }\n' +
      '  - { name: b, script: b.js, dispatch: other }\n' +
      '  - { name: c, ensemble: e, dispatch: other }\n';
    const { issues } = validateEnsembleText(text, { file: 'x.yaml' });
    expect(issues.map(formatEnsembleIssue)).toEqual([
      'x.yaml:3:44: agents[0].dispatch: an agent has one of script, model_profile, model, ensemble, loop, dispatch; it has model_profile and dispatch: remove all but one (agent "a")',
      'x.yaml:4:40: agents[1].dispatch: an agent has one of script, model_profile, model, ensemble, loop, dispatch; it has script and dispatch: remove all but one (agent "b")',
      'x.yaml:5:39: agents[2].dispatch: an agent has one of script, model_profile, model, ensemble, loop, dispatch; it has ensemble and dispatch: remove all but one (agent "c")',
    ]);
  });

  it('a reference to an agent missing from depends_on is an error naming the fix', () => {
    expect(
      problems(
        'name: x\nagents:\n  - { name: route, script: r.js }\n  - { name: other, script: o.js }\n' +
          "  - { name: seat, dispatch: '${route.target}', depends_on: [other] }\n",
      ),
    ).toEqual([
      'agents[2].dispatch: agent "seat" dispatches on "${route.target}", but "route" is not in its depends_on, so its output may not exist yet; add "route" to depends_on',
    ]);
  });

  it('the llm-orc spelling dependencies counts, and the fix names it', () => {
    const base = 'name: x\nagents:\n  - { name: route, script: r.js }\n';
    expect(
      problems(`${base}  - { name: seat, dispatch: '\${route.target}', dependencies: [route] }\n`),
    ).toEqual([]);
    expect(
      problems(`${base}  - { name: seat, dispatch: '\${route.target}', dependencies: [] }\n`),
    ).toEqual([expect.stringContaining('add "route" to dependencies')]);
    expect(
      problems(
        `${base}  - name: seat\n    dispatch: '\${route.target}'\n    depends_on: [{ agent_name: route, condition: 'true' }]\n`,
      ),
    ).toEqual([]);
  });

  it('a reference to an agent the ensemble does not have lists its agents', () => {
    expect(
      problems(
        "name: x\nagents:\n  - { name: route, script: r.js }\n  - { name: seat, dispatch: '${nobody.target}', depends_on: [route] }\n",
      ),
    ).toEqual([
      'agents[1].dispatch: agent "seat" dispatches on "${nobody.target}", but "nobody" is not an agent of this ensemble (agents: route, seat); name one of them and add it to depends_on',
    ]);
  });

  it('a malformed reference is an error at its field', () => {
    expect(
      problems(
        "name: x\nagents:\n  - { name: route, script: r.js }\n  - { name: seat, dispatch: 'seat-${route.target}', depends_on: [route] }\n",
      ),
    ).toEqual([
      expect.stringMatching(
        /^agents\[1\]\.dispatch: dispatch "seat-\$\{route\.target\}" is neither/,
      ),
    ]);
  });

  it('checkEnsemble checks literal targets, ensemble: and loop.body, never a ${} reference', () => {
    const seen: string[] = [];
    const issues = problems(
      'name: x\nagents:\n  - { name: route, script: r.js }\n' +
        "  - { name: seat, dispatch: '${route.target}', depends_on: [route] }\n" +
        '  - { name: fixed, dispatch: missing-seat }\n' +
        '  - { name: sub, ensemble: known }\n' +
        "  - { name: again, loop: { body: missing-body, until: '${done}', max_iterations: 2 } }\n",
      {
        checkEnsemble: (reference) => {
          seen.push(reference);
          return reference.startsWith('missing') ? `no ${reference}` : undefined;
        },
      },
    );
    expect(seen).toEqual(['missing-seat', 'known', 'missing-body']);
    expect(issues).toEqual([
      'agents[2].dispatch: no missing-seat',
      'agents[4].loop.body: no missing-body',
    ]);
  });

  it('checkSiblingEnsemble finds names and paths the way sub-ensembles are resolved', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'seat.yaml'), 'name: seat\n');
    writeFileSync(path.join(dir, 'other.yml'), 'name: other\n');
    expect(checkSiblingEnsemble('seat', dir)).toBeUndefined();
    expect(checkSiblingEnsemble('other', dir)).toBeUndefined();
    expect(checkSiblingEnsemble('seat.yaml', dir)).toBeUndefined();
    expect(checkSiblingEnsemble('nope', dir)).toBe(
      `ensemble "nope" was not found beside this file (looked for nope, nope.yaml and nope.yml in ${dir}); create it or fix the name`,
    );
  });
});

describe('colloquy validate and dispatch', () => {
  let out = '';
  beforeEach(() => {
    out = '';
    process.exitCode = undefined;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('reports a literal target that is not beside the file, and passes one that is', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'seat.yaml'),
      'name: seat\nagents:\n  - { name: a, script: echo }\n',
    );
    const file = path.join(dir, 'main.yaml');
    writeFileSync(
      file,
      'name: main\nagents:\n  - { name: ok, dispatch: seat }\n  - { name: bad, dispatch: sieat }\n',
    );
    const program = new Command('colloquy').exitOverride();
    registerEnsembleCommands(program);
    await program.parseAsync(['node', 'colloquy', 'validate', file]);
    expect(out.trim().split('\n')).toEqual([
      `${file}:4:28: agents[1].dispatch: ensemble "sieat" was not found beside this file (looked for sieat, sieat.yaml and sieat.yml in ${dir}); create it or fix the name`,
    ]);
    expect(process.exitCode).toBe(1);
  });
});
