/**
 * `colloquy graph MODULE[#export]`: prints each agency of a module as a Mermaid flowchart.
 * @module
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { loadAgencyModule } from '../loadModule.js';

interface GraphFlags {
  direction: string;
}

const DIRECTIONS = ['TD', 'LR', 'BT', 'RL'] as const;

/** Registers `colloquy graph`. */
export function registerGraphCommand(program: Command): void {
  program
    .command('graph <module>')
    .description('Print the agencies of a module (.ts or .js, MODULE#export) as Mermaid diagrams.')
    .option('--direction <dir>', `flowchart direction: ${DIRECTIONS.join(', ')}`, 'TD')
    .action(async (module: string, flags: GraphFlags) => {
      const direction = flags.direction.toUpperCase() as (typeof DIRECTIONS)[number];
      if (!DIRECTIONS.includes(direction))
        throw new ConfigError(
          `--direction "${flags.direction}" is not a direction. Use one of: ${DIRECTIONS.join(', ')}.`,
        );
      const { agencies } = await loadAgencyModule(module);
      const entries = Object.entries(agencies);
      const out = entries.map(([name, agency]) =>
        entries.length > 1
          ? `%% agency: ${name}\n${agency.toMermaid({ direction })}`
          : agency.toMermaid({ direction }),
      );
      process.stdout.write(out.join('\n'));
      for (const agency of new Set(Object.values(agencies))) await agency.close();
    });
}
