import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerEnsembleCommands } from '../../src/cli/commands/ensembles.js';
import { tempDir } from './helpers.js';

let out = '';
let cwd = '';
beforeEach(() => {
  out = '';
  cwd = process.cwd();
  process.exitCode = undefined;
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.chdir(cwd);
  process.exitCode = undefined;
});

async function cli(...args: string[]): Promise<void> {
  const program = new Command('colloquy').exitOverride();
  registerEnsembleCommands(program);
  await program.parseAsync(['node', 'colloquy', ...args]);
}

describe('ensemble CLI', () => {
  it('validate prints every error as file:line:column and sets exit code 1', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nagents:\n  - name: a\n    depends_on: [zz]\n');
    await cli('validate', file);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${file}:3:11: agents\\[0\\]\\.name: .*exactly one of script`),
      ),
      expect.stringMatching(
        new RegExp(`^${file}:4:18: agents\\[0\\]\\.depends_on\\[0\\]: depends on "zz"`),
      ),
    ]);
    expect(process.exitCode).toBe(1);
  });

  it('init writes a starter project that invoke runs offline, and refuses to overwrite', async () => {
    const dir = tempDir();
    process.chdir(dir);
    await cli('init');
    expect(existsSync(path.join(dir, 'colloquy.yaml'))).toBe(true);
    out = '';
    await cli('invoke', 'example', '--output', 'json', '--store', path.join(dir, 'runs.db'));
    const result = JSON.parse(out) as { completion_reason: string; turn_count: number };
    expect([result.completion_reason, result.turn_count]).toEqual(['completed', 4]);
    out = '';
    await cli('list-ensembles');
    expect(out).toMatch(/^example\s+A writer and a reviewer/);
    out = '';
    await cli('list-profiles');
    expect(out).toMatch(/offline\s+scripted\/demo/);
    const before = readFileSync(path.join(dir, 'colloquy.yaml'), 'utf8');
    await cli('init');
    expect(process.exitCode).toBe(1);
    expect(readFileSync(path.join(dir, 'colloquy.yaml'), 'utf8')).toBe(before);
  });
});
