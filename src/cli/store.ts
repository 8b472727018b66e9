/**
 * Opens the thread store a CLI command names with `--store` (or the default).
 * @module
 */
import { ThreadManager } from '../threads/threadManager.js';
import { MemoryStore } from '../stores/memory.js';
import { ConfigError } from '../errors.js';

/** Opens a thread manager on the store spec (`memory` for now; more backends are added here). */
export async function openThreadManager(spec?: string): Promise<ThreadManager> {
  if (spec === undefined || spec === 'memory') return new ThreadManager({ store: new MemoryStore() });
  throw new ConfigError(`--store "${spec}" is not a known store. Use: memory.`);
}
