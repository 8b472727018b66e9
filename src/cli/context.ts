/**
 * The CLI's state for one process: modules it has loaded, the pending tsx registration and the
 * project's profiles. It lives on the default runtime (the CLI is one application per process),
 * so commands share it without module-level variables.
 * @module
 */
import type { ProfileRegistry } from '../models/profiles.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';

/** What the CLI keeps while it runs. */
export interface CliContext {
  /** Loaded user modules, by absolute file path (a failed import is removed). */
  readonly modules: Map<string, Promise<Record<string, unknown>>>;
  /** tsx's loaders being registered (once per process). */
  registering: Promise<void> | undefined;
  /** The project's profiles, loaded once for `eval run`. */
  profiles: Promise<ProfileRegistry> | undefined;
}

const CLI_CONTEXT = defineRuntimeSlot<CliContext>('cli.context', () => ({
  modules: new Map(),
  registering: undefined,
  profiles: undefined,
}));

/** The CLI context of `runtime` (default: the default runtime's). */
export function cliContext(runtime: ColloquyRuntime = defaultRuntime()): CliContext {
  return runtime.use(CLI_CONTEXT);
}
