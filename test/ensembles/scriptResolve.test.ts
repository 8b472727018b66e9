import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkScriptExists,
  looksLikePath,
  resolveScript,
  scriptCandidates,
  ScriptNotFoundError,
} from '../../src/ensembles/scriptResolve.js';
import { tempDir } from './helpers.js';

function project(): { root: string; ensembles: string } {
  const root = tempDir();
  const ensembles = path.join(root, '.llm-orc', 'ensembles', 'testing');
  mkdirSync(ensembles, { recursive: true });
  mkdirSync(path.join(root, '.llm-orc', 'scripts', 'tools'), { recursive: true });
  return { root, ensembles };
}

describe('resolveScript', () => {
  it('finds a script in .llm-orc/scripts with the scripts/ prefix and hyphens read as underscores', () => {
    const { root, ensembles } = project();
    const file = path.join(root, '.llm-orc', 'scripts', 'tools', 'word_count.py');
    writeFileSync(file, 'print(1)\n');
    const options = { baseDir: ensembles, projectDir: root, protocol: 'llm-orc' as const };
    expect(resolveScript('scripts/tools/word-count.py', options)).toEqual({
      kind: 'spawn',
      file: 'python3',
      args: [file],
      path: file,
    });
    expect(resolveScript('tools/word_count.py', options)).toMatchObject({ path: file });
  });

  it('searches next to the ensemble, then .llm-orc/scripts, .llm-orc and the project, in that order', () => {
    const { root, ensembles } = project();
    const candidates = scriptCandidates('a.sh', { baseDir: ensembles, projectDir: root });
    expect(candidates).toEqual([
      path.join(ensembles, 'a.sh'),
      path.join(root, '.llm-orc', 'scripts', 'a.sh'),
      path.join(root, '.llm-orc', 'a.sh'),
      path.join(root, 'a.sh'),
    ]);
    writeFileSync(path.join(root, 'a.sh'), 'echo root\n');
    writeFileSync(path.join(root, '.llm-orc', 'a.sh'), 'echo dot\n');
    expect(resolveScript('a.sh', { baseDir: ensembles, projectDir: root })).toMatchObject({
      file: 'bash',
      path: path.join(root, '.llm-orc', 'a.sh'),
    });
  });

  it('a path that exists nowhere names every place it looked (no stack trace)', () => {
    const { root, ensembles } = project();
    let error: unknown;
    try {
      resolveScript('./missing.js', { baseDir: ensembles, projectDir: root });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScriptNotFoundError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Script "\.\/missing\.js" does not exist\. Looked for it at: /);
    expect(message).toContain(path.join(ensembles, 'missing.js'));
    expect(message).toContain(path.join(root, '.llm-orc', 'scripts', 'missing.js'));
    expect(message).toContain('(bundled primitives)');
    expect(message).not.toMatch(/at .*\.ts:\d+/);
  });

  it('bundled primitives answer for llm-orc primitive paths that are not on disk', () => {
    const { root, ensembles } = project();
    const options = { baseDir: ensembles, projectDir: root };
    expect(resolveScript('primitives/file-ops/read_file.py', options)).toEqual({
      kind: 'primitive',
      name: 'read_file',
    });
    expect(resolveScript('primitives/user-interaction/confirm-action.py', options)).toEqual({
      kind: 'primitive',
      name: 'confirm_action',
    });
  });

  it('a local file wins over a bundled primitive of the same name', () => {
    const { root, ensembles } = project();
    mkdirSync(path.join(root, '.llm-orc', 'scripts', 'primitives'), { recursive: true });
    const local = path.join(root, '.llm-orc', 'scripts', 'primitives', 'read_file.py');
    writeFileSync(local, 'print(1)\n');
    expect(
      resolveScript('primitives/read_file.py', { baseDir: ensembles, projectDir: root }),
    ).toMatchObject({ kind: 'spawn', path: local });
  });

  it('a non-path script is inline bash, inside an llm-orc project or not', () => {
    const dir = tempDir();
    expect(resolveScript('echo "hi there" | wc -c', { baseDir: dir })).toEqual({
      kind: 'spawn',
      file: 'bash',
      args: ['-c', 'set -euo pipefail\necho "hi there" | wc -c'],
    });
    expect(resolveScript('node -e "1"', { baseDir: dir })).toEqual({
      kind: 'spawn',
      file: 'bash',
      args: ['-c', 'set -euo pipefail\nnode -e "1"'],
    });
  });

  it('runs .sh with bash, .js with node; other files with bash unless they start with #!', () => {
    const dir = tempDir();
    for (const name of ['a.sh', 'b.js', 'c.tool']) writeFileSync(path.join(dir, name), '');
    writeFileSync(path.join(dir, 'd.tool'), '#!/usr/bin/env node\n');
    expect(resolveScript('./a.sh', { baseDir: dir })).toMatchObject({ file: 'bash' });
    expect(resolveScript('./b.js', { baseDir: dir })).toMatchObject({ file: process.execPath });
    expect(resolveScript('./c.tool', { baseDir: dir })).toMatchObject({
      file: 'bash',
      args: [path.join(dir, 'c.tool')],
    });
    expect(resolveScript('./d.tool x', { baseDir: dir })).toMatchObject({
      file: path.join(dir, 'd.tool'),
      args: ['x'],
    });
  });

  it('looksLikePath and checkScriptExists', () => {
    expect(looksLikePath('x.py')).toBe(true);
    expect(looksLikePath('dir/x')).toBe(true);
    expect(looksLikePath('echo hi')).toBe(false);
    const dir = tempDir();
    expect(checkScriptExists('echo hi', { baseDir: dir })).toBeUndefined();
    expect(checkScriptExists('scripts/nope.py', { baseDir: dir })).toMatch(
      /^script file does not exist; looked at /,
    );
    expect(() => resolveScript('   ', { baseDir: dir })).toThrow(/empty script/);
  });
});
