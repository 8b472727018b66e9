/**
 * llm-orc's project layout: a `.llm-orc/` directory (found from the working directory upward)
 * with `ensembles/**` (nested folders), `config.yaml` (`model_profiles:`), `profiles/*.yaml` (one
 * profile per file, with `name:`) and `scripts/`; plus the global config under
 * `$XDG_CONFIG_HOME/llm-orc` (default `~/.config/llm-orc`).
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { checkYamlLimits } from '../../yamlErrors.js';

/** The name of llm-orc's project directory. */
export const LLM_ORC_DIR = '.llm-orc';

/** The `.llm-orc` directory of `cwd` or its nearest ancestor that has one, or undefined. */
export function findLlmOrcDir(cwd: string = process.cwd()): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, LLM_ORC_DIR);
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {
      // Not here: look in the parent.
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** The directory of the global llm-orc config: `$XDG_CONFIG_HOME/llm-orc` or `~/.config/llm-orc`. */
export function llmOrcGlobalDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim()
    ? env.XDG_CONFIG_HOME
    : path.join(os.homedir(), '.config');
  return path.join(base, 'llm-orc');
}

const isFileSync = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    // Missing or unreadable: not a file here.
    return false;
  }
};

/** Whether a file lies inside a `.llm-orc` directory (its ensembles follow llm-orc's rules). */
export function isInLlmOrcProject(file: string): boolean {
  return path.resolve(file).split(path.sep).includes(LLM_ORC_DIR);
}

/** The `.llm-orc` directory a file lies in, if any. */
export function llmOrcDirOf(file: string): string | undefined {
  const parts = path.resolve(file).split(path.sep);
  const index = parts.lastIndexOf(LLM_ORC_DIR);
  return index < 0 ? undefined : parts.slice(0, index + 1).join(path.sep) || path.sep;
}

/**
 * Every `.yaml`/`.yml` file under `dir`, recursively, sorted; `[]` when `dir` does not exist.
 * Walks folder by folder; symlinked files are included, symlinked folders are not.
 */
export async function listYamlFilesRecursive(dir: string): Promise<string[]> {
  const out: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && current === dir) return [];
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (!/\.ya?ml$/i.test(entry.name)) continue;
      // llm-orc lists symlinked ensemble files too (folders are not followed: no loops).
      else if (entry.isFile() || (entry.isSymbolicLink() && isFileSync(full))) out.push(full);
    }
  }
  return out.sort();
}

/** One ensemble file of a directory tree. */
export interface EnsembleEntry {
  file: string;
  /** The folder relative to the ensembles directory (`''` at its top). */
  folder: string;
  /** The `name:` in the file, or the file name when it cannot be read. */
  name: string;
  /** `folder/name` (or `name` at the top): how llm-orc lists and finds it. */
  displayName: string;
  description?: string;
  /** Set when the file could not be parsed. */
  error?: string;
}

/** Reads the name and description of every ensemble file under `dir` (nested folders included). */
export async function listEnsembleEntries(dir: string): Promise<EnsembleEntry[]> {
  const files = await listYamlFilesRecursive(dir);
  return Promise.all(
    files.map(async (file): Promise<EnsembleEntry> => {
      const folder = path.relative(dir, path.dirname(file)).split(path.sep).join('/');
      const base = path.basename(file).replace(/\.ya?ml$/i, '');
      let name = base;
      let description: string | undefined;
      let error: string | undefined;
      try {
        const text = await readFile(file, 'utf8');
        const limit = checkYamlLimits(text);
        if (limit) throw new Error(limit.message);
        const raw = parseYaml(text) as { name?: unknown; description?: unknown } | null;
        if (typeof raw?.name === 'string' && raw.name) name = raw.name;
        if (typeof raw?.description === 'string') description = raw.description;
      } catch (caught) {
        error = (caught as Error).message.split('\n')[0];
      }
      const displayName = folder ? `${folder}/${name}` : name;
      return { file, folder, name, displayName, description, error };
    }),
  );
}

/**
 * Finds an ensemble in a directory tree as llm-orc does: by `name:`, by `folder/name`, by the
 * file's relative path without extension, or by a folder whose name ends with the ensemble's.
 */
export async function findEnsembleInTree(dir: string, wanted: string): Promise<string | undefined> {
  const entries = await listEnsembleEntries(dir);
  const byPath = entries.find(
    (entry) =>
      path
        .relative(dir, entry.file)
        .split(path.sep)
        .join('/')
        .replace(/\.ya?ml$/i, '') === wanted,
  );
  if (byPath) return byPath.file;
  const match = entries.find(
    (entry) =>
      entry.name === wanted ||
      entry.displayName === wanted ||
      (entry.folder !== '' && entry.folder === wanted && wanted.endsWith(entry.name)),
  );
  return match?.file;
}

/** The ensemble directories of an llm-orc setup, in llm-orc's priority order (project, library, global). */
export function llmOrcEnsembleDirs(
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const dirs: string[] = [];
  const local = findLlmOrcDir(cwd);
  if (local) dirs.push(path.join(local, 'ensembles'));
  const library = env.LLM_ORC_LIBRARY_PATH?.trim()
    ? env.LLM_ORC_LIBRARY_PATH
    : path.join(path.resolve(cwd), 'llm-orchestra-library');
  dirs.push(path.join(library, 'ensembles'));
  dirs.push(path.join(llmOrcGlobalDir(env), 'ensembles'));
  return dirs.filter((dir) => existsSync(dir));
}
