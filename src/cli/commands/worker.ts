/**
 * `colloquy worker`: runs agency calls and ensemble runs taken from the BullMQ queue, with the
 * project's agencies and ensembles on a shared store; and `queuedRegistry`, which `serve --queue`
 * uses to load the same configuration.
 * @module
 */
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectProfiles, type ProjectConfig } from '../../models/projectConfig.js';
import { ConfigError } from '../../errors.js';
import { loadRegistry, readConfig, type ServerRegistry } from '../../server/registry.js';
import { openStore } from '../../stores/openStore.js';
import type { ThreadStore } from '../../stores/types.js';

interface WorkerFlags {
  queue: string;
  store: string;
  concurrency: string;
  config?: string;
  demo: boolean;
  grace: string;
  lockDuration: string;
  queuePrefix: string;
}

/** A whole number ≥ `min` from a flag, or a ConfigError naming the flag. */
export function wholeFlag(value: string, flag: string, min = 0): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new ConfigError(
      `${flag} "${value}" is not a whole number ≥ ${min}. Pass e.g. ${flag} 4.`,
    );
  return parsed;
}

/** What a queued server or a worker loads: the config (agencies from `module` if given) on `storeSpec`. */
export async function queuedRegistry(options: {
  store: string;
  config?: string;
  module?: string;
  demo?: boolean;
}): Promise<{ registry: ServerRegistry; store: ThreadStore; config: ProjectConfig }> {
  if (!/^(rediss?|postgres(ql)?):\/\//.test(options.store)) {
    throw new ConfigError(
      `--store "${options.store}" is not shared between processes. Servers and workers need one Redis or Postgres store: --store redis://HOST:PORT or --store postgres://USER@HOST:PORT/DB.`,
    );
  }
  const read = await readConfig(options.config);
  const config: ProjectConfig =
    options.module !== undefined ? { ...read, agencies: path.resolve(options.module) } : read;
  const store = await openStore(options.store);
  try {
    const { importModuleExports } = await import('../loadModule.js');
    const { createDemoAgency } = await import('../../demo/demoAgency.js');
    const { ThreadManager } = await import('../../threads/threadManager.js');
    const registry = await loadRegistry({
      config,
      store,
      // The same `.ts` loader as `colloquy serve`, so an installed copy loads TypeScript modules.
      importModule: importModuleExports,
      // As `colloquy serve`: the demo agency when the config names no agencies (unless --no-demo),
      // so that servers and workers started as docs/scale-out.md shows offer the same agencies.
      ...(options.demo === false
        ? {}
        : {
            fallbackAgencies: (shared: ThreadStore) => [
              createDemoAgency({ threads: new ThreadManager({ store: shared }) }),
            ],
          }),
    });
    return { registry, store, config };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Registers `colloquy worker`. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      'Run agency calls and ensemble runs from the BullMQ queue (see docs/scale-out.md). Start as many as you like.',
    )
    .argument('[module]', "agencies module (default: the config's agencies:)")
    .requiredOption('--queue <url>', 'the Redis of the queue, e.g. redis://127.0.0.1:6379')
    .requiredOption('--store <url>', 'the shared store: postgres://... or redis://...')
    .option('--concurrency <n>', 'jobs run at once by this worker', '4')
    .option('--config <path>', 'the colloquy.yaml to read (default: ./colloquy.yaml if present)')
    .option('--no-demo', 'do not serve the demo agency')
    .option(
      '--grace <ms>',
      'on SIGTERM, how long running jobs may finish before they are handed back',
      '10000',
    )
    .option('--lock-duration <ms>', "how soon a dead worker's jobs are retried, in ms", '10000')
    .option(
      '--queue-prefix <prefix>',
      'prefix of the queue keys (servers must use the same)',
      'colloquy',
    )
    .action(async (module: string | undefined, flags: WorkerFlags) => {
      const concurrency = wholeFlag(flags.concurrency, '--concurrency', 1);
      const graceMs = wholeFlag(flags.grace, '--grace');
      const lockDurationMs = wholeFlag(flags.lockDuration, '--lock-duration', 1_000);
      const { registry, store, config } = await queuedRegistry({
        store: flags.store,
        demo: flags.demo,
        ...(flags.config !== undefined ? { config: flags.config } : {}),
        ...(module !== undefined ? { module } : {}),
      });
      const { createWorker } = await import('../../queue/worker.js');
      let profiles: ReturnType<typeof loadProjectProfiles> | undefined;
      const worker = createWorker({
        queue: flags.queue,
        prefix: flags.queuePrefix,
        registry,
        concurrency,
        lockDurationMs,
        profiles: () => (profiles ??= loadProjectProfiles({ projectConfig: config })),
      });
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) process.exit(1); // a second signal: stop now
        stopping = true;
        // With Redis or the store unreachable, closing could wait forever: cap it.
        setTimeout(() => process.exit(1), graceMs + 5_000).unref();
        process.stderr.write(
          `colloquy worker: ${signal}: finishing running jobs (up to ${graceMs} ms)...\n`,
        );
        void (async () => {
          await worker.close({ graceMs });
          await registry.close();
          await store.close();
          process.stderr.write('colloquy worker: stopped.\n');
          // Everything is closed; a library handle still open must not keep the worker alive.
          setTimeout(() => process.exit(0), 1_000).unref();
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
        })();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      await worker.worker.waitUntilReady();
      process.stdout.write(
        [
          `Colloquy worker ${worker.id} on ${flags.queue} (concurrency ${concurrency})`,
          `  agencies:  ${[...registry.agencies.keys()].join(', ') || '(none)'}`,
          `  ensembles: ${(await registry.ensembles.names()).join(', ') || '(none)'}`,
          `  store:     ${store.kind}`,
        ].join('\n') + '\n',
      );
    });
}
