/**
 * The `colloquy` command line. Start-up is kept short: `colloquy --help` imports commander and
 * nothing else, and a command imports only its own module (which imports what it uses when it
 * runs). `test/cli/startup.test.ts` fails if `--help` loads a provider, a driver or the server.
 * @module
 */
import { readEnv } from '../env.js';
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ColloquyError } from '../errors.js';
import { envSecrets, redactString } from '../redact.js';

function version(): string {
  const url = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

type Register = (program: Command) => void;

/** A top-level command: its help line, and the module that defines it (loaded when it runs). */
interface CommandEntry {
  /** Names this module registers (the first word of each `usage`). */
  usage: string[];
  /** Other names of those commands (llm-orc's short forms), matched like the first words. */
  aliases?: Record<string, string>;
  description: string;
  load: () => Promise<Register>;
}

/** Every command, in help order. Register new commands here. */
export const COMMANDS: CommandEntry[] = [
  {
    usage: ['demo [message]'],
    description:
      'Run a four-agent demo agency offline and print the conversation tree, threads and usage.',
    load: async () => (await import('./commands/demo.js')).registerDemoCommand,
  },
  {
    usage: ['chat <module>'],
    description: 'Chat in the terminal with the Agency a .ts/.js module exports (MODULE[#export]).',
    load: async () => (await import('./commands/chat.js')).registerChatCommand,
  },
  {
    usage: ['threads'],
    description: 'List, show, export, import, fork, roll back and delete stored chats.',
    load: async () => (await import('./commands/threads.js')).registerThreadsCommands,
  },
  {
    usage: ['memory'],
    description: 'List, search, forget and re-embed what agencies remember about users.',
    load: async () => (await import('./commands/memory.js')).registerMemoryCommands,
  },
  {
    usage: ['traces'],
    description: 'List stored traces and print one as a span tree with timings and tokens.',
    load: async () => (await import('./commands/traces.js')).registerTracesCommands,
  },
  {
    usage: ['invoke <ensemble>', 'validate <files...>', 'list-ensembles', 'list-profiles', 'init'],
    aliases: { i: 'invoke', v: 'validate', le: 'list-ensembles', lp: 'list-profiles' },
    description: '',
    load: async () => (await import('./commands/ensembles.js')).registerEnsembleCommands,
  },
  {
    usage: ['serve'],
    description:
      'Serve agencies and ensembles over HTTP: REST, Server-Sent Events and an OpenAI-compatible /v1 endpoint.',
    load: async () => (await import('./commands/serve.js')).registerServeCommand,
  },
  {
    usage: ['mcp [module]'],
    description:
      'Serve agencies and ensembles as an MCP server over stdio (Claude Desktop, Cursor, …).',
    load: async () => (await import('./commands/mcp.js')).registerMcpCommand,
  },
  {
    usage: ['dev [module]'],
    description:
      'Serve your agencies module with the API and the studio, reloading when the file changes.',
    load: async () => (await import('./commands/dev.js')).registerDevCommand,
  },
  {
    usage: ['graph <module>'],
    description: "Print an agencies module's agency as a Mermaid diagram.",
    load: async () => (await import('./commands/graph.js')).registerGraphCommand,
  },
  {
    usage: ['eval'],
    description: 'Score agencies and ensembles on datasets, compare runs, capture chats as cases.',
    load: async () => (await import('./commands/eval.js')).registerEvalCommands,
  },
  {
    usage: ['schedule'],
    description: 'Add, list and remove schedules: agency messages or ensemble runs on a timer.',
    load: async () => (await import('./commands/schedule.js')).registerScheduleCommands,
  },
  {
    usage: ['worker [module]'],
    description:
      'Run agency calls and ensemble runs from a BullMQ queue on Redis (scale out with colloquy serve --queue).',
    load: async () => (await import('./commands/worker.js')).registerWorkerCommand,
  },
];

const ENSEMBLE_HELP: Record<string, string> = {
  invoke: 'Run an ensemble (a YAML file, or a name in ensembles_dir)',
  validate: 'Check ensemble files and print every problem as file:line:column',
  'list-ensembles': 'List the ensembles in ensembles_dir',
  'list-profiles': 'List the model profiles (colloquy.yaml and ~/.config/colloquy/profiles.yaml)',
  init: 'Write a starter colloquy.yaml and ensembles/example.yaml',
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The command word of argv (the first argument that is not an option or its value). */
export function commandWord(argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--log-level') i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * Builds the program. With `argv` naming a command, only that command's module is loaded and
 * registered; otherwise every command is a help-only stub.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
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
    .hook('preAction', async (command) => {
      const level = command.opts<{ logLevel?: string }>().logLevel;
      if (level === undefined) return;
      const { createLogger, isLogLevel, setDefaultLogger } = await import('../logger.js');
      if (!isLogLevel(level)) {
        const { ConfigError } = await import('../errors.js');
        throw new ConfigError(
          `--log-level "${level}" is not a level. Use one of: ${LOG_LEVELS.join(', ')}.`,
        );
      }
      process.env.COLLOQUY_LOG_LEVEL = level;
      setDefaultLogger(createLogger({ level }));
    });
  const word = commandWord(argv);
  const entry = COMMANDS.find(
    (command) =>
      command.usage.some((usage) => usage.split(' ')[0] === word) ||
      (word !== undefined && command.aliases?.[word] !== undefined),
  );
  if (entry) {
    (await entry.load())(program);
    return program;
  }
  for (const command of COMMANDS)
    for (const usage of command.usage) {
      const name = usage.split(' ')[0]!;
      const stub = program
        .command(usage)
        .description(command.description || ENSEMBLE_HELP[name] || '');
      for (const [alias, target] of Object.entries(command.aliases ?? {}))
        if (target === name) stub.alias(alias);
    }
  return program;
}

/** Runs the CLI; exits non-zero with a one-line message on a user error. */
export async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const prefix = error instanceof ColloquyError ? `error [${error.code}]` : 'error';
    // Secrets never reach the terminal, even from an error a provider echoed them in.
    const redact = (text: string) => redactString(text, { secrets: envSecrets() });
    const message = (error as Error)?.message ?? String(error);
    process.stderr.write(redact(`colloquy: ${prefix}: ${message}\n`));
    if (readEnv('COLLOQUY_DEBUG')) process.stderr.write(redact(`${(error as Error)?.stack}\n`));
    process.exitCode = 1;
  }
}
