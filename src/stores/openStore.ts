/**
 * Opens a store from a one-line spec, as the CLI's `--store` and the config's `store:` give it:
 * `memory`, `sqlite:PATH`, `dir:PATH`, `redis://…`, `postgres://…`, `conversations:BASE_URL` (the
 * OpenAI / Azure Conversations API), or a bare file path (SQLite).
 * No spec means the embedded default: SQLite at `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`.
 * Only the named backend's module loads (SQLite for the default, nothing of SQLite for `memory`).
 * @module
 */
import { defaultStorePath } from '../paths.js';
import { parseStoreSpec } from './storeSpec.js';
import type { ThreadStore } from './types.js';

export { defaultStorePath };

/**
 * Opens the store a spec names (see `parseStoreSpec`, which refuses a malformed spec before
 * anything loads); only that backend's module and driver load.
 */
export async function openStore(
  spec?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ThreadStore> {
  const parsed = parseStoreSpec(spec, env);
  switch (parsed.kind) {
    case 'memory': {
      const { MemoryStore } = await import('./memory.js');
      return new MemoryStore();
    }
    case 'sqlite': {
      const { SqliteStore } = await import('./sqlite.js');
      return new SqliteStore({ path: parsed.path });
    }
    case 'dir': {
      const { JsonFileStore } = await import('./jsonFile.js');
      return new JsonFileStore({ dir: parsed.dir });
    }
    case 'conversations': {
      const { ConversationsStore } = await import('./conversations.js');
      return new ConversationsStore({ baseURL: parsed.baseURL, env });
    }
    case 'redis': {
      const { RedisStore } = await import('./redis.js');
      return new RedisStore({ url: parsed.url });
    }
    case 'postgres': {
      const { PostgresStore } = await import('./postgres.js');
      return new PostgresStore({ connectionString: parsed.url });
    }
  }
}
