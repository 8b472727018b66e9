// `colloquy init`, `invoke`, `validate` and `list-*` through main(): every user error is one line
// with its code and exit code 1, naming the flag or file and the fix.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorLine, runCli } from '../../runCli.js';

let dir: string;
let cwd: string;
beforeEach(async () => {
  cwd = process.cwd();
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-invoke-errors-'));
  process.chdir(dir);
  const init = await runCli('init');
  expect(init.code).toBe(0);
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
});

describe('colloquy init', () => {
  it('refuses to overwrite, naming both files, and leaves them as they were', async () => {
    const config = path.join(dir, 'colloquy.yaml');
    writeFileSync(config, '# mine\n');
    const again = await runCli('init');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Refusing to overwrite ${config}`);
    expect(again.stderr).toContain(path.join(dir, 'ensembles', 'example.yaml'));
    expect(readFileSync(config, 'utf8')).toBe('# mine\n');
  });
});

describe('colloquy invoke errors', () => {
  it('an unknown ensemble lists every place looked and how to find names', async () => {
    const run = await runCli('invoke', 'nosuch');
    expect(run.code).toBe(1);
    const { code, message } = errorLine(run);
    expect(code).toBe('ENSEMBLE_INVALID');
    expect(message).toContain('Ensemble "nosuch" was not found');
    expect(message).toContain(path.join(dir, 'ensembles', 'nosuch.yaml'));
    expect(message).toContain(path.join(dir, 'ensembles', 'nosuch.yml'));
    expect(message).toContain('colloquy list-ensembles');
  });

  it('bad flags are CONFIG_INVALID and name the value', async () => {
    const cases: Array<[string[], string]> = [
      [['--output', 'xml'], '--output xml is not a format. Use rich, json or text.'],
      [
        ['--output', 'json', '--output-format', 'text'],
        '--output and --output-format are the same option; give one.',
      ],
      [['--max-concurrent', '0'], '--max-concurrent 0 is not a positive integer.'],
      [['--concurrency', 'two'], '--max-concurrent two is not a positive integer.'],
      [
        ['a', '--input', 'b'],
        'Give the input once: as the INPUT argument, --input/--input-data, or --input-file.',
      ],
      [
        ['--input-data', 'a', '-f', 'x.txt'],
        'Give the input once: as the INPUT argument, --input/--input-data, or --input-file.',
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await runCli('invoke', 'example', ...flags);
      expect(run.code, flags.join(' ')).toBe(1);
      expect(errorLine(run), flags.join(' ')).toEqual({ code: 'CONFIG_INVALID', message });
    }
  });

  it('a missing --input-file names the flag, the path and the fix', async () => {
    const run = await runCli('invoke', 'example', '-f', 'missing.txt');
    const { code, message } = errorLine(run);
    expect(code).toBe('CONFIG_INVALID');
    expect(message).toMatch(
      /^--input-file missing\.txt could not be read: ENOENT.*Check the path\.$/,
    );
  });

  it('a missing --inputs answers file names the flag, the path and the fix', async () => {
    const run = await runCli('invoke', 'example', 'x', '--inputs', 'answers.yaml');
    expect(run.code).toBe(1);
    const { code, message } = errorLine(run);
    expect(code).toBe('CONFIG_INVALID');
    expect(message).toMatch(/^--inputs answers\.yaml could not be read: ENOENT.*Check the path\.$/);
  });

  it('an invalid --inputs file reports the position of the problem', async () => {
    writeFileSync(path.join(dir, 'answers.yaml'), 'answers:\n  writer: [a]\nextra: 1\n');
    const run = await runCli('invoke', 'example', 'x', '--inputs', 'answers.yaml');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('answers.yaml:3:1: extra: unknown key "extra"');
  });

  it('resuming an unknown run names it and the store', async () => {
    const run = await runCli(
      'invoke',
      'example',
      'x',
      '--resume',
      'r_missing',
      '--store',
      'memory',
    );
    expect(errorLine(run)).toEqual({
      code: 'ENSEMBLE_RUN_ERROR',
      message:
        'There is no run "r_missing" to resume in the memory store. Check the run id and --store.',
    });
  });

  it('a bad --store is reported before the run starts', async () => {
    const run = await runCli('invoke', 'example', 'x', '--store', 'ftp://nowhere');
    expect(run.code).toBe(1);
    expect(errorLine(run).code).toBe('CONFIG_INVALID');
    expect(run.stderr).not.toContain('turn 1');
  });

  it('an invalid colloquy.yaml stops invoke with its position', async () => {
    writeFileSync(path.join(dir, 'colloquy.yaml'), 'ensembles_dir: ensembles\nstore: 3\n');
    const run = await runCli('invoke', 'example', 'x');
    expect(run.code).toBe(1);
    const { code, message } = errorLine(run);
    expect(code).toBe('CONFIG_INVALID');
    expect(message).toContain(`${path.join(dir, 'colloquy.yaml')} is invalid:`);
    expect(run.stderr).toContain('colloquy.yaml:2:8: store: ');
  });

  it('the happy path still works and prints JSON with the final state', async () => {
    const run = await runCli(
      'invoke',
      'example',
      'hello',
      '--output',
      'json',
      '--store',
      'memory',
      '--no-artifacts',
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { final_state: Record<string, unknown> };
    expect(Object.keys(result.final_state).sort()).toEqual(['reviewer', 'writer']);
  });
});

describe('colloquy validate and list errors', () => {
  it('validate reports a missing file on stdout at 1:1, checks the others, and exits 1', async () => {
    const run = await runCli('validate', 'missing.yaml', path.join('ensembles', 'example.yaml'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^missing\.yaml:1:1: \(file\): cannot read: ENOENT/m);
    expect(run.stdout).toContain(`${path.join('ensembles', 'example.yaml')}: ok`);
    expect(run.stderr).toContain('1 of 2 files valid, 1 problems');
  });

  it('validate names an unknown profile at its line', async () => {
    const file = path.join(dir, 'ensembles', 'example.yaml');
    const text = readFileSync(file, 'utf8');
    const profile = /model_profile: (\S+)/.exec(text)![1]!;
    writeFileSync(file, text.replace(`model_profile: ${profile}`, 'model_profile: nosuchprofile'));
    const run = await runCli('validate', file);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: .*nosuchprofile`,
        'm',
      ),
    );
  });

  it('list-profiles fails on an invalid colloquy.yaml with its position', async () => {
    writeFileSync(
      path.join(dir, 'colloquy.yaml'),
      'profiles:\n  p: { provider: nope, model: m }\n',
    );
    const run = await runCli('list-profiles');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/colloquy\.yaml:2:\d+: profiles\.p\.provider: /);
  });

  it('list-ensembles with an empty ensembles_dir says where it looked', async () => {
    rmSync(path.join(dir, 'ensembles'), { recursive: true });
    const run = await runCli('list-ensembles');
    expect(run.stdout + run.stderr).toContain(path.join(dir, 'ensembles'));
  });
});
