/**
 * `colloquy dev [MODULE]`: the studio and the API for your agencies, reloaded when you save.
 * @module
 */
import { DEFAULT_PORT } from '../../defaults.js';
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { readEnv } from '../../env.js';
import { startDevServer } from '../devServer.js';

interface DevFlags {
  port: string;
  host: string;
  config?: string;
  apiKey?: string;
  watch: boolean;
}

/** Registers `colloquy dev`. */
export function registerDevCommand(program: Command): void {
  program
    .command('dev [module]')
    .description(
      'Serve an agency module (.ts or .js, MODULE#export for one export) with the studio and the API; reload it when files change.',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(DEFAULT_PORT))
    .option('--host <host>', 'host to listen on; a non-loopback host needs an API key', '127.0.0.1')
    .option('--config <path>', 'the colloquy.yaml to read (store, ensembles_dir)')
    .option('--api-key <key>', 'the studio and clients must send it (default: $COLLOQUY_API_KEY)')
    .option('--no-watch', 'do not reload on file changes')
    .action(async (module: string | undefined, flags: DevFlags) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new ConfigError(`--port "${flags.port}" is not a port. Pass e.g. --port 8787.`);
      const apiKey = flags.apiKey ?? readEnv('COLLOQUY_API_KEY');
      const dev = await startDevServer({
        port,
        host: flags.host,
        watch: flags.watch,
        ...(module !== undefined ? { module } : {}),
        ...(flags.config !== undefined ? { config: flags.config } : {}),
        ...(apiKey !== undefined ? { apiKey } : {}),
        onReload: (event) =>
          process.stdout.write(
            event.type === 'reloaded'
              ? `colloquy dev: ${event.changed} changed: reloaded (${event.agencies.join(', ')})\n`
              : `colloquy dev: ${event.changed} changed, but the module failed to load; still serving the previous version.\n  ${event.error.message}\n`,
          ),
      });
      process.stdout.write(
        [
          `Colloquy Studio: ${dev.url}/`,
          `  agencies: ${dev.agencies.join(', ') || '(none)'}`,
          `  watching: ${dev.watching ?? '(off)'}`,
          `  auth:     ${apiKey ? 'API key required (the studio asks for it)' : 'none (loopback only)'}`,
          '',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          process.stderr.write('colloquy dev: stopping...\n');
          void dev.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
