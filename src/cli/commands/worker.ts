/**
 * `colloquy worker`: runs agency calls and ensemble runs taken from the BullMQ queue, with the
 * project's agencies and ensembles on a shared store (loaded by `../queuedRegistry.ts`, as
 * `serve --queue` loads them).
 * @module
 */
import type { Command } from 'commander';
import { loadProjectProfiles } from '../../models/projectConfig.js';
import { ConfigError } from '../../errors.js';

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
      const { queuedRegistry } = await import('../queuedRegistry.js');
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
