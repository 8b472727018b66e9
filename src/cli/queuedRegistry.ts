/**
 * What `colloquy serve --queue` and `colloquy worker` both load: the project's agencies and
 * ensembles on one store shared between processes. Neither command imports the other.
 * @module
 */
import path from 'node:path';
import { ConfigError } from '../errors.js';
import type { ProjectConfig } from '../models/projectConfig.js';
import { loadRegistry, readConfig, type ServerRegistry } from '../server/registry.js';
import { openStore } from '../stores/openStore.js';
import type { ThreadStore } from '../stores/types.js';

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
    const { importModuleExports } = await import('./loadModule.js');
    const { createDemoAgency } = await import('../demo/demoAgency.js');
    const { ThreadManager } = await import('../threads/threadManager.js');
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
