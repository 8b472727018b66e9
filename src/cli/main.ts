/**
 * The `colloquy` command line.
 * @module
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ColloquyError } from '../errors.js';
import { registerDemoCommand } from './commands/demo.js';

function version(): string {
  const url = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** Builds the program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('colloquy')
    .description('Multi-agent LLM systems with isolated, persistent, forkable conversation threads.')
    .version(version())
    .showHelpAfterError();
  registerDemoCommand(program);
  return program;
}

/** Runs the CLI; exits non-zero with a one-line message on a user error. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const prefix = error instanceof ColloquyError ? `error [${error.code}]` : 'error';
    process.stderr.write(`colloquy: ${prefix}: ${(error as Error)?.message ?? String(error)}\n`);
    if (process.env.COLLOQUY_DEBUG) process.stderr.write(`${(error as Error)?.stack}\n`);
    process.exitCode = 1;
  }
}
