/**
 * `colloquy serve`: serves the project's agencies (the demo agency when the config names none) and
 * ensembles over HTTP.
 * @module
 */
import { DEFAULT_PORT } from '../../defaults.js';
import type { Command } from 'commander';
import { readEnv } from '../../env.js';
import { ConfigError } from '../../errors.js';

interface ServeFlags {
  port: string;
  host: string;
  config?: string;
  apiKey?: string;
  demo: boolean;
  grace: string;
  allowedHost: string[];
  cors: string[];
  queue?: string;
  queuePrefix: string;
  store?: string;
  auth: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function wholeNumber(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new ConfigError(`${flag} "${value}" is not a whole number. Pass e.g. ${flag} 8787.`);
  return parsed;
}

/** With `--queue`: the registry on the shared store, and the executor that queues work. */
async function queuedSetup(flags: ServeFlags) {
  if (flags.queue === undefined) {
    if (flags.store !== undefined)
      throw new ConfigError('--store is for a queued server: pass --queue redis://... with it.');
    return undefined;
  }
  if (flags.store === undefined) {
    throw new ConfigError(
      '--queue needs --store: the servers and workers share one store, e.g. --store postgres://USER@HOST:PORT/DB.',
    );
  }
  const { queuedRegistry } = await import('../queuedRegistry.js');
  const { queuedExecutor } = await import('../../queue/queuedExecutor.js');
  const { QueueSchedules } = await import('../../queue/schedules.js');
  const { registry, store, config } = await queuedRegistry({
    store: flags.store,
    demo: flags.demo,
    ...(flags.config !== undefined ? { config: flags.config } : {}),
  });
  const executor = queuedExecutor(registry, { queue: flags.queue, prefix: flags.queuePrefix });
  return {
    registry,
    executor,
    // Schedules on BullMQ job schedulers: workers run their ticks.
    schedules: new QueueSchedules(executor.client),
    scheduleConfig: config.schedules,
    close: async () => {
      await registry.close();
      await store.close();
    },
  };
}

/** Registers `colloquy serve`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'Serve agencies and ensembles over HTTP: REST, Server-Sent Events and an OpenAI-compatible /v1 endpoint.',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(DEFAULT_PORT))
    .option('--host <host>', 'host to listen on; a non-loopback host needs an API key', '127.0.0.1')
    .option('--config <path>', 'the colloquy.yaml to read (default: ./colloquy.yaml if present)')
    .option(
      '--api-key <key>',
      'clients must send "Authorization: Bearer <key>" (default: $COLLOQUY_API_KEY)',
    )
    .option(
      '--auth <mode>',
      'key: one shared API key; jwt: per-user bearer JWTs from $COLLOQUY_JWT_SECRET or $COLLOQUY_JWKS_URL (docs/auth.md)',
      'key',
    )
    .option('--no-demo', 'do not serve the demo agency when the config names no agencies')
    .option('--grace <ms>', 'how long shutdown waits for running requests, in ms', '10000')
    .option(
      '--allowed-host <name>',
      'also answer for this Host name (repeatable; "*" for any)',
      collect,
      [],
    )
    .option(
      '--cors <origin>',
      'let browser pages on this origin call the server (repeatable; "*" for any)',
      collect,
      [],
    )
    .option(
      '--queue <url>',
      'queue calls and runs on this Redis for workers (see docs/scale-out.md)',
    )
    .option('--store <url>', 'the shared store of a queued server: postgres://... or redis://...')
    .option(
      '--queue-prefix <prefix>',
      'prefix of the queue keys (workers must use the same)',
      'colloquy',
    )
    .action(async (flags: ServeFlags) => {
      const { startServer } = await import('../../server/serve.js');
      const { importModuleExports } = await import('../loadModule.js');
      const { createDemoAgency } = await import('../../demo/demoAgency.js');
      const { ThreadManager } = await import('../../threads/threadManager.js');
      // JWT verification (jose, some 170 modules) loads only for a server that verifies JWTs.
      const authenticate =
        flags.auth === 'key'
          ? undefined
          : (await import('../../server/auth/jwt.js')).authenticatorFor(flags.auth, process.env);
      const queued = await queuedSetup(flags);
      const server = await startServer({
        ...(queued
          ? {
              registry: queued.registry,
              executor: queued.executor,
              schedules: queued.schedules,
              ...(queued.scheduleConfig ? { scheduleConfig: queued.scheduleConfig } : {}),
            }
          : {}),
        importModule: importModuleExports,
        port: wholeNumber(flags.port, '--port'),
        host: flags.host,
        gracePeriodMs: wholeNumber(flags.grace, '--grace'),
        ...(flags.config !== undefined ? { config: flags.config } : {}),
        ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
        ...(authenticate ? { authenticate } : {}),
        ...(flags.demo
          ? {
              fallbackAgencies: (store) => [
                createDemoAgency({ threads: new ThreadManager({ store }) }),
              ],
            }
          : {}),
        ...(flags.allowedHost.length > 0 ? { allowedHosts: flags.allowedHost } : {}),
        ...(flags.cors.length > 0 ? { cors: flags.cors } : {}),
        onShutdown: (phase, { signal }) => {
          if (phase === 'finished' && queued) void queued.close();
          // With the queue's Redis unreachable, closing could wait forever: cap it.
          if (phase === 'started' && queued)
            setTimeout(() => process.exit(1), wholeNumber(flags.grace, '--grace') + 5_000).unref();
          process.stderr.write(
            phase === 'started'
              ? `colloquy: ${signal ?? 'shutdown'}: finishing running requests, then closing stores...\n`
              : 'colloquy: server stopped.\n',
          );
        },
      });
      const agencies = [...server.registry.agencies.keys()];
      const auth = Boolean(readEnv('COLLOQUY_API_KEY') || flags.apiKey || authenticate);
      const ensembles = await server.registry.ensembles.names();
      const lines = [
        `Colloquy server listening on ${server.url}`,
        `  agencies:  ${agencies.join(', ') || '(none)'}`,
        `  ensembles: ${ensembles.join(', ') || '(none)'}`,
        ...(flags.queue ? [`  queue:     ${flags.queue} (calls and runs run on workers)`] : []),
        `  auth:      ${auth ? 'bearer token required' : 'none (loopback only)'}`,
        `  try:       curl -N -X POST ${server.url}/agencies/${agencies[0] ?? 'NAME'}/responses/stream -H 'content-type: application/json'${auth ? ` -H "Authorization: Bearer ${flags.apiKey ? '<your --api-key>' : '$COLLOQUY_API_KEY'}"` : ''} -d '{"message":"hi"}'`,
        `  traces:    ${server.url}/traces  (colloquy traces list)`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
