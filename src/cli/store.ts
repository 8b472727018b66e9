/**
 * Opens the thread store a CLI command names with `--store` (or the default embedded store).
 * @module
 */
import { ThreadManager } from '../threads/threadManager.js';
import { openStore } from '../stores/openStore.js';

/** A thread manager on the store `spec` names (see `openStore`). */
export async function openThreadManager(spec?: string): Promise<ThreadManager> {
  return new ThreadManager({ store: await openStore(spec) });
}
