/**
 * `colloquy mcp [MODULE]`: serves agencies (and the project's ensembles) as an MCP server over
 * stdio, for MCP hosts such as Claude Desktop, Cursor or VS Code. Without MODULE it serves what
 * `colloquy serve` serves: the config's `agencies:` module, else the demo agency. Logs go to
 * stderr; stdout carries only MCP messages.
 * @module
 */
import path from 'node:path';
import type { Command } from 'commander';

interface McpFlags {
  config?: string;
  demo: boolean;
}

/** Registers `colloquy mcp`. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp [module]')
    .description(
      'Serve agencies (ask_<agency>) and ensembles (run_<ensemble>) as an MCP server over stdio.',
    )
    .option('--config <path>', 'the colloquy.yaml to read (default: ./colloquy.yaml if present)')
    .option('--no-demo', 'do not serve the demo agency when nothing else is named')
    .action(async (module: string | undefined, flags: McpFlags) => {
      const { createMcpServer } = await import('../../server/mcp.js');
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const { createRegistry, loadRegistry, readConfig } = await import('../../server/registry.js');
      const { inProcessExecutor } = await import('../../server/executor.js');
      const { importModuleExports, loadAgencyModule } = await import('../loadModule.js');
      const { createDemoAgency } = await import('../../demo/demoAgency.js');
      const { ThreadManager } = await import('../../threads/threadManager.js');
      const { openStore } = await import('../../stores/openStore.js');
      let registry;
      if (module !== undefined) {
        const config = await readConfig(flags.config);
        const { agencies } = await loadAgencyModule(module, { cwd: process.cwd() });
        registry = createRegistry({
          agencies,
          store: await openStore(config.store),
          ownsStore: true,
          ensembles: path.resolve(config.baseDir, config.ensembles_dir),
        });
      } else {
        registry = await loadRegistry({
          importModule: importModuleExports,
          ...(flags.config !== undefined ? { config: flags.config } : {}),
          ...(flags.demo
            ? {
                fallbackAgencies: (store) => [
                  createDemoAgency({ threads: new ThreadManager({ store }) }),
                ],
              }
            : {}),
        });
      }
      const server = await createMcpServer({
        registry,
        executor: inProcessExecutor(registry),
        elicit: true, // stdio carries the server's elicitation requests
      });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      await server.connect(transport);
      process.stderr.write(
        `colloquy mcp: serving ${[...registry.agencies.keys()].map((n) => `ask_${n}`).join(', ') || '(no agencies)'} over stdio\n`,
      );
      process.stdin.on('end', () => void server.close());
      await closed;
      await registry.close();
    });
}
