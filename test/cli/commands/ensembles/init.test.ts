// `colloquy init`: the starter project validates, runs offline as its comment promises, and is
// never written over a file that exists.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../runCli.js';

let dir: string;
let cwd: string;
beforeEach(() => {
  cwd = process.cwd();
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-init-'));
  process.chdir(dir);
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

describe('colloquy init', () => {
  it('writes a starter that validates and lists its ensemble and profiles', async () => {
    const init = await runCli('init');
    expect(init.code).toBe(0);
    expect(init.stdout).toBe(
      `Wrote ${path.join(dir, 'colloquy.yaml')} and ${path.join(dir, 'ensembles', 'example.yaml')}.\nTry: colloquy invoke example\n`,
    );
    const validate = await runCli('validate', path.join('ensembles', 'example.yaml'));
    expect(validate.code).toBe(0);
    const profiles = await runCli('list-profiles');
    expect(profiles.stdout).toMatch(/^offline +scripted\/demo /m);
    expect(profiles.stdout).toMatch(/^reviewer +scripted\/reviewer /m);
  });

  it('runs offline with the outcome its comment states', async () => {
    await runCli('init');
    const promised = /Expected outcome: completion_reason: (\w+), turn_count: (\d+)/.exec(
      readFileSync(path.join(dir, 'ensembles', 'example.yaml'), 'utf8'),
    )!;
    const run = await runCli('invoke', 'example', '--output', 'json', '--store', 'memory');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      completion_reason: string;
      turn_count: number;
      final_state: { reviewer: { satisfied: boolean } };
    };
    expect(result.completion_reason).toBe(promised[1]);
    expect(result.turn_count).toBe(Number(promised[2]));
    expect(result.final_state.reviewer.satisfied).toBe(true);
  });

  it('refuses when only one of the two files exists, and writes neither', async () => {
    mkdirSync(path.join(dir, 'ensembles'));
    writeFileSync(path.join(dir, 'ensembles', 'example.yaml'), '# mine\n');
    const run = await runCli('init');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Refusing to overwrite ${path.join(dir, 'ensembles', 'example.yaml')}. Move or delete it first, or edit it by hand.\n`,
    );
    expect(existsSync(path.join(dir, 'colloquy.yaml'))).toBe(false);
    expect(readFileSync(path.join(dir, 'ensembles', 'example.yaml'), 'utf8')).toBe('# mine\n');
  });
});
