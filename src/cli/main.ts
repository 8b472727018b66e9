/**
 * The `colloquy` command line.
 * @module
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ColloquyError, ConfigError } from '../errors.js';
import { createLogger, isLogLevel, LOG_LEVELS, setDefaultLogger } from '../logger.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDevCommand } from './commands/dev.js';
import { registerGraphCommand } from './commands/graph.js';
import { registerEnsembleCommands } from './commands/ensembles.js';
import { registerServeCommand } from './commands/serve.js';
import { registerThreadsCommands } from './commands/threads.js';

function version(): string {
  const url = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** Builds the program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('colloquy')
    .description(
      'Multi-agent LLM systems with isolated, persistent, forkable conversation threads.',
    )
    .version(version())
    .option(
      '--log-level <level>',
      `log level: ${LOG_LEVELS.join(', ')} (default: $COLLOQUY_LOG_LEVEL or warn)`,
    )
    .showHelpAfterError()
    .hook('preAction', (command) => {
      const level = command.opts<{ logLevel?: string }>().logLevel;
      if (level === undefined) return;
      if (!isLogLevel(level))
        throw new ConfigError(
          `--log-level "${level}" is not a level. Use one of: ${LOG_LEVELS.join(', ')}.`,
        );
      setDefaultLogger(createLogger({ level }));
    });
  registerDemoCommand(program);
  registerThreadsCommands(program);
  registerEnsembleCommands(program);
  registerServeCommand(program);
  registerDevCommand(program); // studio: dev server, Mermaid graph
  registerGraphCommand(program);
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
