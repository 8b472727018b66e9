/**
 * Loads a user's agency module (`.ts`, `.mts`, `.js` or `.mjs`) for `colloquy chat`, `serve` and
 * `dev`. TypeScript is compiled on the fly with tsx, so it works from an installed copy of
 * Colloquy, not only from a source checkout; tsx's loader is registered only when a TypeScript
 * module is loaded. Every import has a deadline (see `importDeadline.ts`), and an export that
 * looks like an Agency but lacks what the server uses is refused at load.
 * @module
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agency } from '../agency/agency.js';
import { assertServableAgency, isAgencyLike } from '../agency/isAgencyLike.js';
import { ConfigError } from '../errors.js';
import { importOptionalPeer } from '../optionalPeer.js';
import { findModuleFile, MODULE_EXTENSIONS } from '../paths.js';
import { cliContext } from './context.js';
import { ImportTimeoutError, importTimeoutMs, withImportDeadline } from './importDeadline.js';

/** Options of {@link loadAgencyModule}. */
export interface LoadAgencyModuleOptions {
  /** Where a relative specifier starts (default `process.cwd()`). */
  cwd?: string;
  /** Import the module again, bypassing the module cache (for reloads; default false). */
  fresh?: boolean;
  /** Deadline of the import in ms (default `$COLLOQUY_IMPORT_TIMEOUT_MS`, else 30,000). */
  importTimeoutMs?: number;
}

/** What {@link loadAgencyModule} found. */
export interface LoadedAgencyModule {
  /** The absolute path of the module file. */
  path: string;
  /** The module's Agency exports by served name (or only the one `MODULE#export` names). */
  agencies: Record<string, Agency>;
  /** Every export of the module. */
  exports: Record<string, unknown>;
}

export { isAgencyLike };

/** Splits `MODULE#export` into the module and the export name (if any). */
export function parseModuleSpecifier(specifier: string): { module: string; exportName?: string } {
  const hash = specifier.lastIndexOf('#');
  if (hash <= 0) return { module: specifier };
  const exportName = specifier.slice(hash + 1);
  return exportName === ''
    ? { module: specifier.slice(0, hash) }
    : { module: specifier.slice(0, hash), exportName };
}

/** The file a module specifier names: the file itself, with an added extension, or a folder's index. */
export function resolveModuleFile(module: string, cwd: string): string {
  const base = path.resolve(cwd, module);
  const { found } = findModuleFile(base);
  if (!found) {
    throw new ConfigError(
      `The agency module "${module}" names no file (looked in ${cwd} for ${path.basename(base)} with ` +
        `${MODULE_EXTENSIONS.slice(1).join(', ')} and ${path.basename(base)}/index.*). ` +
        'Pass the path of a .ts or .js file that exports an Agency, e.g. colloquy chat ./agency.ts.',
    );
  }
  return found;
}

/** Whether `file` is TypeScript, the only kind that needs tsx's loader. */
export function isTypeScriptFile(file: string): boolean {
  return /\.(?:ts|tsx|mts|cts)$/i.test(file);
}

const TSX_REGISTERED = Symbol.for('colloquy.tsx.registered');

/** Registers tsx's loaders for the whole process once (bin/colloquy.js may have done it already). */
function registerTsx(): Promise<void> {
  const flags = globalThis as { [TSX_REGISTERED]?: boolean };
  if (flags[TSX_REGISTERED]) return Promise.resolve();
  const context = cliContext();
  context.registering ??= (async () => {
    const [esm, cjs] = await Promise.all([
      importOptionalPeer('tsx', () => import('tsx/esm/api')),
      importOptionalPeer('tsx', () => import('tsx/cjs/api')),
    ]);
    // Both, as the tsx CLI does: a .ts file outside a "type": "module" package is compiled to
    // CommonJS, and its require() of TypeScript needs the CommonJS hook.
    esm.register();
    cjs.register();
    flags[TSX_REGISTERED] = true;
  })();
  return context.registering;
}

async function importFile(
  file: string,
  fresh: boolean,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const cache = cliContext().modules;
  const cached = fresh ? undefined : cache.get(file);
  if (cached) return cached;
  const importing = (async () => {
    // The CLI's process is ours: Runners the module makes itself run model names on OpenAI, as
    // with `@openai/agents` (nothing loads until a model is asked for).
    (await import('../models/openaiDefault.js')).useOpenAIByDefault();
    if (fresh) {
      const { tsImport } = await importOptionalPeer('tsx', () => import('tsx/esm/api'));
      // A reload must re-read the module and the files it imports: tsImport loads them under a
      // new namespace (with their own copy of Colloquy and the SDK, which is why it is only used
      // for reloads).
      const module = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<
        string,
        unknown
      >;
      // That SDK copy adds its console exporter when imported: register only Colloquy's again.
      (await import('../tracing/setup.js')).restoreTraceProcessors();
      return module;
    }
    // One process-wide loader: 'colloquy' and the SDK imported by the module are the CLI's own
    // instances, so their settings (tracing, default model provider) are shared. A JavaScript
    // module needs no loader (tsx's costs a thread and about 40 MiB).
    if (isTypeScriptFile(file)) await registerTsx();
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  })();
  // A failed or timed-out import is not cached, so that a later load tries again.
  const loading = withImportDeadline(importing, file, timeoutMs);
  cache.set(file, loading);
  loading.catch(() => cache.delete(file)); // the caller gets the error; the next load retries
  return loading;
}

/**
 * A module's own exports. A `.ts` file outside a `"type": "module"` package is compiled to
 * CommonJS, and importing it gives `default` = `module.exports`; unwrap that to the real exports.
 */
export function ownExports(namespace: Record<string, unknown>): Record<string, unknown> {
  const inner = namespace.default as Record<string, unknown> | null | undefined;
  const compiled = typeof inner === 'object' && inner !== null && inner.__esModule === true;
  const exports: Record<string, unknown> = compiled ? { ...inner } : { ...namespace };
  delete exports.__esModule;
  delete exports['module.exports'];
  return exports;
}

function agenciesOf(
  file: string,
  exports: Record<string, unknown>,
  exportName: string | undefined,
): Record<string, Agency> {
  if (exportName !== undefined) {
    const value = exports[exportName];
    if (!isAgencyLike(value)) {
      const names = Object.keys(exports).filter((name) => isAgencyLike(exports[name]));
      throw new ConfigError(
        `${file} has no Agency export "${exportName}" (its Agency exports: ${names.join(', ') || 'none'}). ` +
          `Pass one of them after "#", e.g. ${path.basename(file)}#${names[0] ?? 'default'}.`,
      );
    }
    assertServableAgency(value, `${file}: export "${exportName}"`);
    return {
      [value.name === 'agency' && exportName !== 'default' ? exportName : value.name]: value,
    };
  }
  const found: Record<string, Agency> = {};
  const seen = new Set<unknown>();
  for (const [name, value] of Object.entries(exports)) {
    if (!isAgencyLike(value) || seen.has(value)) continue;
    seen.add(value);
    assertServableAgency(value, `${file}: export "${name}"`);
    const served = value.name === 'agency' && name !== 'default' ? name : value.name;
    if (found[served]) {
      throw new ConfigError(
        `${file} exports two agencies named "${served}". Give each a distinct name option, or pick one with ${path.basename(file)}#EXPORT.`,
      );
    }
    found[served] = value;
  }
  if (Object.keys(found).length === 0) {
    throw new ConfigError(
      `${file} exports no Agency. Export one: export default new Agency({ name: 'support', entryPoints: [...] }).`,
    );
  }
  return found;
}

/**
 * Imports a module file with the CLI's loader (`.ts` works from an installed copy) and returns
 * its own exports, Agency or not: for the server registry, which also takes a module exporting a
 * `createAgencies({ store })` factory. The import has the deadline of {@link importTimeoutMs}.
 */
export async function importModuleExports(
  file: string,
  options: { importTimeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  return ownExports(await importFile(file, false, importTimeoutMs(options.importTimeoutMs)));
}

/**
 * Imports an agency module and returns its Agency exports.
 *
 * @example
 * ```ts
 * const { agencies } = await loadAgencyModule('./agency.ts#support');
 * const [agency] = Object.values(agencies);
 * ```
 */
export async function loadAgencyModule(
  specifier: string,
  options: LoadAgencyModuleOptions = {},
): Promise<LoadedAgencyModule> {
  const { module, exportName } = parseModuleSpecifier(specifier);
  const file = resolveModuleFile(module, options.cwd ?? process.cwd());
  const timeoutMs = importTimeoutMs(options.importTimeoutMs);
  let exports: Record<string, unknown>;
  try {
    exports = ownExports(await importFile(file, options.fresh ?? false, timeoutMs));
  } catch (error) {
    if (error instanceof ImportTimeoutError) throw error;
    throw new ConfigError(
      `Could not import the agency module ${file}: ${(error as Error)?.message ?? String(error)}. ` +
        'Fix the error in the module (run it with `npx tsx` to see the full stack).',
      { cause: error },
    );
  }
  return { path: file, agencies: agenciesOf(file, exports, exportName), exports };
}
