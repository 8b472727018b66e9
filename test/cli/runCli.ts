/**
 * Runs the whole CLI (`main`) in this process with stdout and stderr captured, for tests of the
 * commands' output, error lines and exit codes.
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/** What one CLI run printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `colloquy ...args` in-process (cwd and environment as they are). */
export async function runCli(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  process.exitCode = 0;
  try {
    await main(['node', 'colloquy', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}

/** The one `colloquy: error [CODE]: …` line of a failed run, checked to be exactly one line. */
export function errorLine(run: CliRun): { code: string | undefined; message: string } {
  const lines = run.stderr.trimEnd().split('\n');
  const match = /^colloquy: error(?: \[([A-Z_]+)\])?: (.*)$/.exec(lines[0] ?? '');
  if (!match) throw new Error(`not an error line: ${JSON.stringify(run.stderr)}`);
  return { code: match[1], message: match[2]! };
}
