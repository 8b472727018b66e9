/**
 * Default locations on disk, in one dependency-free module so that features which only need a
 * path (file search, the CLI) never load a database driver to learn it.
 * @module
 */
import { resolve } from 'node:path';

/** Where the default store lives: `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.COLLOQUY_DB && env.COLLOQUY_DB.trim() !== ''
    ? env.COLLOQUY_DB
    : resolve('.colloquy', 'colloquy.db');
}
