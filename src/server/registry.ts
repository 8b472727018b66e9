/**
 * What a server serves: agencies (from the module the config's `agencies:` names, or the fallback
 * agencies a caller such as the CLI passes when it names none), ensembles (from `ensembles_dir`), the store ensemble runs are checkpointed in, and the
 * chat directory the chat routes use.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agency } from '../agency/agency.js';
import { assertServableAgency, isAgencyLike } from '../agency/isAgencyLike.js';
import {
  loadProjectConfig,
  loadProjectProfiles,
  parseProjectConfig,
  type ProjectConfig,
} from '../models/projectConfig.js';
import type { CreateModel } from '../ensembles/agentModels.js';
import { ConfigError } from '../errors.js';
import { findModuleFile } from '../paths.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { MemoryStore } from '../stores/memory.js';
import { openStore } from '../stores/openStore.js';
import type { ThreadStore } from '../stores/types.js';
import { ChatDirectory } from './chats.js';
import { DirectoryEnsembleCatalog, type EnsembleCatalog } from './ensembleCatalog.js';
import { EnsembleRuns } from './ensembleRuns.js';
import { notFound } from './errors.js';

/** Everything the routes serve. Build one with {@link createRegistry} or {@link loadRegistry}. */
export interface ServerRegistry {
  /** Agencies by the name they are served under. */
  readonly agencies: ReadonlyMap<string, Agency>;
  readonly ensembles: EnsembleCatalog;
  readonly runs: EnsembleRuns;
  readonly chats: ChatDirectory;
  /** Cancels running ensemble runs after `graceMs`, then closes the agencies and the stores it owns. */
  close(graceMs?: number): Promise<void>;
}

/** Options of {@link createRegistry}. Every field is optional. */
export interface RegistryOptions {
  /** Agencies to serve, under their `name` (or the record's keys). */
  agencies?: Agency[] | Record<string, Agency>;
  /** The store of ensemble runs (default: a new MemoryStore). */
  store?: ThreadStore;
  /** Close `store` on close (default: true when the registry created it). */
  ownsStore?: boolean;
  /** The ensembles offered: a catalog, or a directory of YAML files (default: none). */
  ensembles?: EnsembleCatalog | string;
  /** Profiles for ensembles' LLM agents (default: runEnsemble's). */
  profiles?: () => Promise<ProfileRegistry>;
  /** Makes ensemble agents' models (tests pass scripted ones). */
  createModel?: CreateModel;
}

const EMPTY_CATALOG: EnsembleCatalog = {
  names: async () => [],
  load: async (name) => {
    throw notFound(
      'ENSEMBLE_NOT_FOUND',
      `Ensemble "${name}"`,
      [],
      'This server offers no ensembles: set ensembles_dir in colloquy.yaml.',
    );
  },
  findByEnsembleName: async () => null,
};

/**
 * Builds a registry from agencies you already have.
 *
 * @example
 * ```ts
 * const registry = createRegistry({ agencies: [support], ensembles: 'ensembles' });
 * const app = createApp({ registry });
 * ```
 */
export function createRegistry(options: RegistryOptions = {}): ServerRegistry {
  const store = options.store ?? new MemoryStore();
  const ownsStore = options.ownsStore ?? options.store === undefined;
  const agencies = new Map<string, Agency>(
    Array.isArray(options.agencies)
      ? options.agencies.map((agency) => [agency.name, agency])
      : Object.entries(options.agencies ?? {}),
  );
  // A duck-typed fake would make GET /agencies and the graph fail for every agency: refuse it here.
  for (const [name, agency] of agencies)
    assertServableAgency(agency, `createRegistry: agency "${name}"`);
  const ensembles =
    typeof options.ensembles === 'string'
      ? new DirectoryEnsembleCatalog({
          dir: options.ensembles,
          ...(options.profiles ? { profiles: options.profiles } : {}),
        })
      : (options.ensembles ?? EMPTY_CATALOG);
  const runs = new EnsembleRuns({
    store,
    catalog: ensembles,
    ...(options.profiles ? { profiles: options.profiles } : {}),
    ...(options.createModel ? { createModel: options.createModel } : {}),
  });
  return {
    agencies,
    ensembles,
    runs,
    chats: new ChatDirectory(agencies, [store]),
    async close(graceMs = 0) {
      await runs.close(graceMs);
      for (const agency of new Set(agencies.values())) await agency.close();
      if (ownsStore) await store.close();
    },
  };
}

/** Options of {@link loadRegistry}. */
export interface LoadRegistryOptions {
  /** The project config, or the path of a `colloquy.yaml` (or of its directory). Default: `./colloquy.yaml` if any. */
  config?: ProjectConfig | string;
  /**
   * Agencies to serve when the config names none (`agencies:` unset), built on the registry's
   * store. Default: none. The CLI's `serve` passes the demo agency here.
   */
  fallbackAgencies?: FallbackAgencies;
  /** Use this store instead of the config's `store:` (the caller closes it). */
  store?: ThreadStore;
  /** Makes ensemble agents' models. */
  createModel?: CreateModel;
  /**
   * Imports the agencies module (default: Node's `import()`). The CLI passes its loader, which
   * compiles `.ts` modules on the fly so that an installed copy serves them too.
   */
  importModule?: ModuleImporter;
}

/** Builds the agencies a server offers when its config names none, on the server's store. */
export type FallbackAgencies = (store: ThreadStore) => Agency[];
/** Imports a module file and returns its exports. */
export type ModuleImporter = (file: string) => Promise<Record<string, unknown>>;

/** Reads a `colloquy.yaml` by path (file or directory); an explicit path that does not exist is an error. */
export async function readConfig(location?: string): Promise<ProjectConfig> {
  if (location === undefined) return loadProjectConfig({ cwd: process.cwd() });
  const resolved = path.resolve(location);
  if (!existsSync(resolved)) {
    throw new ConfigError(
      `Config file ${resolved} does not exist. Pass the path of a colloquy.yaml to --config, or omit --config.`,
    );
  }
  if (statSync(resolved).isDirectory()) return loadProjectConfig({ cwd: resolved });
  return {
    ...parseProjectConfig(await readFile(resolved, 'utf8'), resolved),
    configPath: resolved,
    baseDir: path.dirname(resolved),
  };
}

/** The file a config's `agencies:` names: a module, a module without extension, or a directory's index. */
export function resolveAgencyModule(spec: string, baseDir: string): string {
  const base = path.resolve(baseDir, spec);
  const { found, candidates } = findModuleFile(base);
  if (!found) {
    throw new ConfigError(
      `agencies: "${spec}" names no module (looked for ${candidates.join(', ')}). ` +
        'Point it at a .ts/.js file that exports Agency instances, relative to colloquy.yaml.',
    );
  }
  return found;
}

/**
 * What an agencies module may export as `createAgencies`: builds its agencies on the store the
 * process was given, so that servers and workers started with the same `--store` share threads.
 */
export type AgencyFactory = (options: {
  store: ThreadStore;
}) => Agency[] | Record<string, Agency> | Promise<Agency[] | Record<string, Agency>>;

/** Options of {@link importAgencies}. */
export interface ImportAgenciesOptions {
  /** The store passed to the module's `createAgencies` factory (a module without one ignores it). */
  store?: ThreadStore;
  /** Imports the module file (default: Node's `import()`; the CLI passes its `.ts` loader). */
  importModule?: ModuleImporter;
}

/**
 * Imports an agencies module and returns its Agency exports by served name: the agency's `name`,
 * or the export's name for a named export of an agency left with the default name `agency`. A
 * module that exports a `createAgencies` {@link AgencyFactory} gets `options.store` and serves
 * the agencies it returns.
 */
export async function importAgencies(
  file: string,
  options: ImportAgenciesOptions = {},
): Promise<Map<string, Agency>> {
  const importModule =
    options.importModule ??
    (async (target: string) =>
      (await import(pathToFileURL(target).href)) as Record<string, unknown>);
  let module: Record<string, unknown>;
  try {
    module = await importModule(file);
  } catch (error) {
    if ((error as Error)?.name === 'ImportTimeoutError') throw error; // it names the module and the fix
    throw new ConfigError(
      `Could not import the agencies module ${file}: ${(error as Error).message}. ` +
        'Fix the module (a .ts file needs the CLI from a source checkout, or compile it to .js).',
      { cause: error },
    );
  }
  if (typeof module.createAgencies === 'function' && options.store) {
    // A factory builds the agencies on the store the server or worker was given (`--store`).
    const made = (await (module.createAgencies as AgencyFactory)({ store: options.store })) as
      Agency[] | Record<string, Agency>;
    module = Array.isArray(made) ? Object.fromEntries(made.map((a, i) => [`agency${i}`, a])) : made;
  }
  const found = new Map<string, Agency>();
  const seen = new Set<Agency>();
  for (const [exportName, value] of Object.entries(module)) {
    if (!isAgencyLike(value) || seen.has(value)) continue;
    seen.add(value);
    assertServableAgency(value, `The agencies module ${file}: export "${exportName}"`);
    const name = value.name === 'agency' && exportName !== 'default' ? exportName : value.name;
    if (found.has(name)) {
      throw new ConfigError(
        `The agencies module ${file} exports two agencies named "${name}". Give each a distinct name option.`,
      );
    }
    found.set(name, value);
  }
  if (found.size === 0) {
    throw new ConfigError(
      `The agencies module ${file} exports no Agency. Export one: export default new Agency({ name: 'support', ... }).`,
    );
  }
  return found;
}

/**
 * Builds the registry a project's config describes: the config's store (default: the embedded
 * SQLite store), its agencies module (else `fallbackAgencies`), and its ensembles directory.
 *
 * @example
 * ```ts
 * const registry = await loadRegistry({ config: 'colloquy.yaml' });
 * ```
 */
export async function loadRegistry(options: LoadRegistryOptions = {}): Promise<ServerRegistry> {
  const config =
    typeof options.config === 'object' ? options.config : await readConfig(options.config);
  const store = options.store ?? (await openStore(config.store));
  const imported = config.agencies
    ? await importAgencies(resolveAgencyModule(config.agencies, config.baseDir), {
        store,
        ...(options.importModule ? { importModule: options.importModule } : {}),
      })
    : undefined;
  const agencies =
    imported ??
    new Map((options.fallbackAgencies?.(store) ?? []).map((agency) => [agency.name, agency]));
  let profiles: Promise<ProfileRegistry> | undefined;
  return createRegistry({
    agencies: Object.fromEntries(agencies),
    store,
    ownsStore: options.store === undefined,
    ensembles: path.resolve(config.baseDir, config.ensembles_dir),
    profiles: () => (profiles ??= loadProjectProfiles({ projectConfig: config })),
    ...(options.createModel ? { createModel: options.createModel } : {}),
  });
}
