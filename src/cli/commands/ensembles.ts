/**
 * CLI commands for ensembles: `invoke`, `validate`, `list-ensembles`, `list-profiles`, `init`.
 * Each command lives in `ensembles/`; this module registers them, with llm-orc's option names
 * as aliases where they do not clash with Colloquy's. Each command's module is imported when it
 * runs, so `invoke` does not load `validate`'s or `list-ensembles`' code (and the reverse).
 * @module
 */
import { DEFAULT_ENSEMBLE_CONCURRENCY } from '../../defaults.js';
import type { Command } from 'commander';
import type { InvokeOptions } from './ensembles/invoke.js';

export { profilesForEnsemble } from './ensembles/profiles.js';

/**
 * Registers the ensemble commands on a commander program.
 *
 * @example
 * ```ts
 * const program = new Command('colloquy');
 * registerEnsembleCommands(program);
 * await program.parseAsync(process.argv);
 * ```
 */
export function registerEnsembleCommands(program: Command): void {
  program
    .command('invoke')
    .alias('i')
    .description('Run an ensemble (a YAML file, a name in ensembles_dir, or an llm-orc name)')
    .argument('<ensemble>', 'FILE or NAME (llm-orc names such as testing/simple work)')
    .argument('[input]', 'the task (default: --input, --input-file, piped stdin, or default_task)')
    .option('--input <text>', 'the task; "-" reads it from stdin')
    .option('--input-data <text>', 'the task (llm-orc spelling of --input)')
    .option('-f, --input-file <file>', 'read the task from a file')
    .option('-o, --output <format>', 'rich, json or text (default: rich on a TTY, else text)')
    .option('--output-format <format>', 'llm-orc spelling of --output (json or text)')
    .option('--inputs <file>', "answers for agents' questions (YAML: answers: { agent: [...] })")
    .option('--resume <runId>', 'continue an interrupted run from its last finished turn')
    .option('--run-id <runId>', 'the id of a new run (default: random)')
    .option('--user <id>', 'the user the run is for: the scope of the ensemble’s memory:')
    .option(
      '--store <spec>',
      'store of runs: a SQLite file path, sqlite:PATH, dir:PATH, redis://…, postgres://… (default: $COLLOQUY_DB or .colloquy/colloquy.db)',
    )
    .option(
      '--concurrency <n>',
      `agents run at once within a step (default ${DEFAULT_ENSEMBLE_CONCURRENCY})`,
    )
    .option('--max-concurrent <n>', 'llm-orc spelling of --concurrency')
    .option('--detailed', "text output: show each agent's result (default)")
    .option('--no-detailed', "text output: leave out each agent's result")
    .option(
      '--artifacts',
      'write .llm-orc/artifacts/<ensemble>/<timestamp>/ (default: in llm-orc projects)',
    )
    .option('--no-artifacts', 'do not write llm-orc artifacts')
    .action(async (target: string, input: string | undefined, options: InvokeOptions) => {
      const { invoke } = await import('./ensembles/invoke.js');
      await invoke(target, input, options);
    });
  program
    .command('validate')
    .alias('v')
    .description(
      'Check ensemble files (and their script files); print every problem as file:line:column',
    )
    .argument('<files...>', 'ensemble YAML files')
    .action(async (files: string[]) => {
      const { validate } = await import('./ensembles/validate.js');
      await validate(files);
    });
  program
    .command('list-ensembles')
    .alias('le')
    .description('List the ensembles in ensembles_dir and .llm-orc/ensembles (nested folders too)')
    .action(async () => (await import('./ensembles/list.js')).listEnsembles());
  program
    .command('list-profiles')
    .alias('lp')
    .description('List the model profiles (colloquy.yaml, ~/.config/colloquy, .llm-orc config)')
    .action(async () => (await import('./ensembles/list.js')).listProfiles());
  program
    .command('init')
    .description('Write a starter colloquy.yaml and ensembles/example.yaml')
    .action(async () => (await import('./ensembles/init.js')).init());
}
