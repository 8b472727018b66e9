/**
 * Default locations on disk, in one dependency-free module so that features which only need a
 * path (file search, the CLI) never load a database driver to learn it.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnv } from './env.js';

/** Where the default store lives: `$COLLOQUY_DB`, else `./.colloquy/colloquy.db`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return readEnv('COLLOQUY_DB', env) ?? resolve('.colloquy', 'colloquy.db');
}

/** Extensions tried, in order, for a module named without one (`''` = as written). */
export const MODULE_EXTENSIONS: readonly string[] = ['', '.ts', '.mts', '.js', '.mjs'];

/**
 * The files a module path may mean: itself, with each extension added, or a folder's `index.*`.
 * Returns the candidates tried and the first that is a file (undefined when none is).
 */
export function findModuleFile(base: string): { found: string | undefined; candidates: string[] } {
  const candidates = [
    ...MODULE_EXTENSIONS.map((ext) => base + ext),
    ...MODULE_EXTENSIONS.slice(1).map((ext) => join(base, `index${ext}`)),
  ];
  const found = candidates.find((file) => existsSync(file) && statSync(file).isFile());
  return { found, candidates };
}
