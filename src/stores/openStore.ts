/**
 * Opens a store from a one-line spec, as the CLI's `--store` and the config's `store:` give it:
 * `memory`, `sqlite:PATH`, `dir:PATH`, `redis://…`, `postgres://…`, `conversations:BASE_URL` (the
 * OpenAI / Azure Conversations API), or a bare file path (SQLite).
 * No spec means the embedded default: SQLite at `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`.
 * @module
 */
import { defaultStorePath } from '../paths.js';
import { JsonFileStore } from './jsonFile.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';
import { parseStoreSpec } from './storeSpec.js';
import type { ThreadStore } from './types.js';

export { defaultStorePath };

/** The embedded default store (SQLite, WAL). */
export function openDefaultStore(env: NodeJS.ProcessEnv = process.env): ThreadStore {
  return new SqliteStore({ path: defaultStorePath(env) });
}

/** Opens the store a spec names (see `parseStoreSpec`); Redis and Postgres drivers load only when asked for. */
export async function openStore(
  spec?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ThreadStore> {
  const parsed = parseStoreSpec(spec, env);
  switch (parsed.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      return new SqliteStore({ path: parsed.path });
    case 'dir':
      return new JsonFileStore({ dir: parsed.dir });
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
