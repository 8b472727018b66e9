/**
 * Opens a store from a one-line spec, as the CLI's `--store` and the config's `store:` give it:
 * `memory`, `sqlite:PATH`, `dir:PATH`, `redis://…`, `postgres://…`, `conversations:BASE_URL` (the
 * OpenAI / Azure Conversations API), or a bare file path (SQLite).
 * No spec means the embedded default: SQLite at `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`.
 * @module
 */
import { ConfigError } from '../errors.js';
import { defaultStorePath } from '../paths.js';
import { JsonFileStore } from './jsonFile.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';
import type { ThreadStore } from './types.js';

export { defaultStorePath };

/** The embedded default store (SQLite, WAL). */
export function openDefaultStore(env: NodeJS.ProcessEnv = process.env): ThreadStore {
  return new SqliteStore({ path: defaultStorePath(env) });
}

/** Opens the store a spec names; Redis and Postgres drivers load only when asked for. */
export async function openStore(
  spec?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ThreadStore> {
  if (spec === undefined || spec.trim() === '') return openDefaultStore(env);
  if (spec === 'memory') return new MemoryStore();
  if (spec.startsWith('sqlite:')) return new SqliteStore({ path: nonEmpty(spec, 'sqlite:') });
  if (spec.startsWith('dir:')) return new JsonFileStore({ dir: nonEmpty(spec, 'dir:') });
  if (spec.startsWith('conversations:')) {
    const { ConversationsStore } = await import('./conversations.js');
    return new ConversationsStore({ baseURL: conversationsURL(spec), env });
  }
  if (/^rediss?:\/\//.test(spec)) {
    const { RedisStore } = await import('./redis.js');
    return new RedisStore({ url: spec });
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const { PostgresStore } = await import('./postgres.js');
    return new PostgresStore({ connectionString: spec });
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(spec)) return new SqliteStore({ path: spec });
  throw new ConfigError(
    `Store "${spec}" is not a store spec. Use memory, sqlite:PATH (or a bare file path), dir:PATH, redis://HOST:PORT, postgres://USER@HOST:PORT/DB or conversations:https://api.openai.com/v1.`,
  );
}

function nonEmpty(spec: string, prefix: string): string {
  const rest = spec.slice(prefix.length);
  if (rest.trim() === '')
    throw new ConfigError(`Store "${spec}" names no path: write ${prefix}PATH.`);
  return rest;
}

/** The base URL of a `conversations:` spec (`conversations:openai` is OpenAI's own). */
function conversationsURL(spec: string): string {
  const rest = spec.slice('conversations:'.length).trim();
  if (rest === 'openai') return 'https://api.openai.com/v1';
  if (!/^https?:\/\//.test(rest))
    throw new ConfigError(
      `Store "${spec}" names no base URL: write conversations:https://api.openai.com/v1 (OpenAI) or conversations:https://NAME.openai.azure.com/openai/v1 (Azure).`,
    );
  return rest;
}
