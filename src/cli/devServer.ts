/**
 * `colloquy dev`: serves an agency module (or the project's agencies, or the demo agency) with
 * the API and the studio, and reloads the module when a file it depends on changes: the module,
 * the project files it imports (transitively), the data files it names, and the colloquy.yaml
 * it was configured by (see `importGraph.ts`); other files of the folder, such as unrelated
 * scripts, are ignored, so that editing them cuts off no request in flight. The new agencies are
 * served by a fresh server on the same port; a module that fails to load leaves the running one
 * in place. Reloads do not wait for each other's imports: the latest change wins, so
 * an edit whose import hangs (until its deadline) does not keep a later fix from being served.
 * @module
 */
import { DEFAULT_PORT } from '../defaults.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createDemoAgency } from '../demo/demoAgency.js';
import { createRegistry, readConfig, type ServerRegistry } from '../server/registry.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { openStore } from '../stores/openStore.js';
import { ThreadManager } from '../threads/threadManager.js';
import { watchFileSet, type FileSetWatcher } from './fileSetWatcher.js';
import { importGraph } from './importGraph.js';
import { loadAgencyModule, parseModuleSpecifier, resolveModuleFile } from './loadModule.js';

/** Options of {@link startDevServer}. Every field is optional. */
export interface DevServerOptions {
  /** The agency module, `path[#export]` (default: the config's `agencies:`, else the demo agency). */
  module?: string;
  /** Port (default 8787; 0 picks a free one, kept across reloads). */
  port?: number;
  /** Host (default 127.0.0.1). */
  host?: string;
  /** API key clients and the studio must send (default: none on loopback). */
  apiKey?: string;
  /** The colloquy.yaml (default ./colloquy.yaml if any): store and ensembles directory. */
  config?: string;
  /** Reload when files change (default true). */
  watch?: boolean;
  /** How long to wait for more changes before reloading, in ms (default 150). */
  debounceMs?: number;
  /** Where relative paths start (default `process.cwd()`). */
  cwd?: string;
  /** Deadline of each module import in ms (default `$COLLOQUY_IMPORT_TIMEOUT_MS`, else 30,000). */
  importTimeoutMs?: number;
  /** Told about reloads and failed reloads (default: nothing). */
  onReload?: (event: DevReloadEvent) => void;
}

/** What {@link DevServerOptions.onReload} hears. */
export type DevReloadEvent =
  | { type: 'reloaded'; agencies: string[]; changed: string }
  | { type: 'reload_failed'; error: Error; changed: string };

/** A running dev server. */
export interface DevServer {
  /** The URL of the studio (and the API). */
  readonly url: string;
  /** The agencies served now. */
  readonly agencies: string[];
  /** The folder of the watched module, if any. */
  readonly watching: string | undefined;
  /** The files whose changes reload: the module's import graph and its config (absolute paths). */
  readonly watchedFiles: readonly string[];
  /** Loads the module again and restarts the server with it (what a file change does). */
  reload(changed?: string): Promise<void>;
  close(): Promise<void>;
}

async function buildRegistry(options: DevServerOptions, cwd: string): Promise<ServerRegistry> {
  const config = await readConfig(options.config ?? cwd);
  const store = await openStore(config.store);
  const ensembles = path.resolve(config.baseDir, config.ensembles_dir);
  const spec =
    options.module ?? (config.agencies ? path.resolve(config.baseDir, config.agencies) : undefined);
  try {
    const agencies = spec
      ? (
          await loadAgencyModule(spec, {
            cwd,
            fresh: true,
            ...(options.importTimeoutMs !== undefined
              ? { importTimeoutMs: options.importTimeoutMs }
              : {}),
          })
        ).agencies
      : { demo: createDemoAgency({ threads: new ThreadManager({ store }) }) };
    return createRegistry({ agencies, store, ownsStore: true, ensembles });
  } catch (error) {
    await store.close(); // a module that fails to load leaves no store open behind it
    throw error;
  }
}

/**
 * Starts the dev server.
 *
 * @example
 * ```ts
 * const dev = await startDevServer({ module: './agencies.ts', port: 0 });
 * console.log(`Studio: ${dev.url}/`);
 * ```
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const cwd = options.cwd ?? process.cwd();
  const start = async (registry: ServerRegistry, port: number) =>
    startServer({
      registry,
      port,
      host: options.host ?? '127.0.0.1',
      handleSignals: false,
      gracePeriodMs: 1000,
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    });
  let registry = await buildRegistry(options, cwd);
  let server: RunningServer;
  try {
    server = await start(registry, options.port ?? DEFAULT_PORT);
  } catch (error) {
    await registry.close();
    throw error;
  }
  const port = server.port;
  let queue: Promise<void> = Promise.resolve(); // swaps of the server, one at a time
  let closed = false;
  let latest = 0; // the newest reload; an older one that finishes later is dropped

  const reload = async (changed = '(manual)'): Promise<void> => {
    const generation = ++latest;
    let next: ServerRegistry;
    try {
      // Imports run side by side, outside the queue: a hung one never holds up a later one.
      next = await buildRegistry(options, cwd);
    } catch (error) {
      if (generation === latest && !closed)
        options.onReload?.({ type: 'reload_failed', error: error as Error, changed });
      return;
    }
    const swap = queue.then(async () => {
      if (closed || generation !== latest) {
        await next.close(); // superseded by a newer change, or the server is closing
        return;
      }
      await server.close();
      await registry.close();
      registry = next;
      server = await start(registry, port);
      options.onReload?.({ type: 'reloaded', agencies: [...registry.agencies.keys()], changed });
    });
    queue = swap.catch(() => undefined); // the caller of swap gets its error; the next swap runs
    return swap;
  };

  /**
   * Forgets the CommonJS copies of the graph's files (a `.ts` module outside a `"type":
   * "module"` package is compiled to CommonJS, and its imports stay in the require cache), so that
   * a reload re-reads an edited import.
   */
  const forget = (files: Iterable<string>) => {
    const cache = createRequire(import.meta.url).cache;
    const graph = new Set(files);
    for (const key of Object.keys(cache))
      if (graph.has(key.replace(/\?.*$/, ''))) delete cache[key];
  };
  const moduleFile = options.module
    ? resolveModuleFile(parseModuleSpecifier(options.module).module, cwd)
    : undefined;
  const dir = moduleFile ? path.dirname(moduleFile) : undefined;
  let watcher: FileSetWatcher | undefined;
  if (moduleFile && dir && (options.watch ?? true)) {
    const configFile = (await readConfig(options.config ?? cwd)).configPath;
    const graph = () => [...importGraph(moduleFile), ...(configFile ? [configFile] : [])];
    let timer: NodeJS.Timeout | undefined;
    watcher = watchFileSet((file) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // Read the graph again after each load: an edit may import a new file or drop one.
        forget(watcher?.files ?? []);
        void reload(path.relative(dir, file)).finally(() => !closed && watcher?.set(graph()));
      }, options.debounceMs ?? 150);
    });
    watcher.set(graph());
  }

  return {
    get url() {
      return server.url;
    },
    get agencies() {
      return [...registry.agencies.keys()];
    },
    watching: watcher ? dir : undefined,
    get watchedFiles() {
      return watcher ? [...watcher.files].sort() : [];
    },
    reload,
    async close() {
      closed = true;
      watcher?.close();
      await queue;
      await server.close();
      await registry.close();
    },
  };
}
