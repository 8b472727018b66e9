/**
 * The embedded default store, opened synchronously (an `Agency` without a store uses it): SQLite
 * at `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`. Apart from `openStore`, so opening another
 * backend from a spec does not load SQLite.
 * @module
 */
import { defaultStorePath } from '../paths.js';
import { SqliteStore } from './sqlite.js';
import type { ThreadStore } from './types.js';

/** The embedded default store (SQLite, WAL). */
export function openDefaultStore(env: NodeJS.ProcessEnv = process.env): ThreadStore {
  return new SqliteStore({ path: defaultStorePath(env) });
}
