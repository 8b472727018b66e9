/**
 * Loading ensemble files: by path, or by name from the project's `ensembles_dir`. Any problem
 * throws an {@link EnsembleValidationError} listing every issue with `file:line:column`.
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ColloquyError } from '../errors.js';
import { findEnsembleInTree, isInLlmOrcProject, llmOrcEnsembleDirs } from './llmorc/project.js';
import type { Ensemble } from './schema.js';
import { formatEnsembleIssue, validateEnsembleText } from './validate.js';
import type { EnsembleIssue } from './validate.js';

/** An ensemble file is invalid; `issues` lists every problem found. */
export class EnsembleValidationError extends ColloquyError {
  readonly issues: EnsembleIssue[];

  constructor(file: string, issues: EnsembleIssue[]) {
    super(
      'ENSEMBLE_INVALID',
      `Ensemble ${file} is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n` +
        issues.map(formatEnsembleIssue).join('\n'),
    );
    this.issues = issues;
  }
}

/** Options of {@link loadEnsemble} and {@link parseEnsemble}. */
export interface LoadEnsembleOptions {
  /** Known profile names; an agent naming another profile is an error. Omit to skip that check. */
  profileNames?: readonly string[];
  /** Where a bare name is looked up: `{cwd}/{ensemblesDir}/{name}.yaml` (default `cwd` and `ensembles`). */
  cwd?: string;
  ensemblesDir?: string;
  /** Follow llm-orc's rules (unknown top-level keys kept). Default: the file is under `.llm-orc/`. */
  llmOrc?: boolean;
  /** Checks each script (e.g. that the file exists); see `checkScriptExists`. */
  checkScript?: (script: string) => string | undefined;
  /** Checks each ensemble the file names (`ensemble:`, `loop.body`, a literal `dispatch:`). */
  checkEnsemble?: (reference: string) => string | undefined;
}

/**
 * Parses and validates ensemble YAML text; throws {@link EnsembleValidationError} with every issue.
 *
 * @example
 * ```ts
 * const ensemble = parseEnsemble(text, { file: 'team.yaml' });
 * ```
 */
export function parseEnsemble(
  text: string,
  options: LoadEnsembleOptions & { file?: string; baseDir?: string } = {},
): Ensemble {
  const file = options.file ?? '<ensemble>';
  const { issues, ensemble } = validateEnsembleText(text, {
    file,
    profileNames: options.profileNames,
    baseDir: options.baseDir,
    llmOrc: options.llmOrc ?? (options.file ? isInLlmOrcProject(options.file) : false),
    checkScript: options.checkScript,
    checkEnsemble: options.checkEnsemble,
  });
  if (!ensemble) throw new EnsembleValidationError(file, issues);
  return ensemble;
}

/**
 * Finds an ensemble: an existing path as given, else `{ensemblesDir}/{name}.yaml` or `.yml`.
 * Throws `ENSEMBLE_INVALID` naming the places it looked.
 */
export function resolveEnsemblePath(fileOrName: string, options: LoadEnsembleOptions = {}): string {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const direct = path.resolve(cwd, fileOrName);
  if (existsSync(direct)) return direct;
  const dir = path.resolve(cwd, options.ensemblesDir ?? 'ensembles');
  const candidates = [`${fileOrName}.yaml`, `${fileOrName}.yml`].map((name) =>
    path.join(dir, name),
  );
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found) return found;
  throw new ColloquyError(
    'ENSEMBLE_INVALID',
    `Ensemble "${fileOrName}" was not found (looked at ${[direct, ...candidates].join(', ')}). ` +
      'Pass a path to a YAML file, or a name of a file in ensembles_dir (see colloquy list-ensembles).',
  );
}

/**
 * Loads an ensemble by path or name; relative script paths resolve from the file's directory.
 *
 * @example
 * ```ts
 * const ensemble = await loadEnsemble('examples/ensembles/iterative-analysis.yaml');
 * ```
 */
export async function loadEnsemble(
  fileOrName: string,
  options: LoadEnsembleOptions = {},
): Promise<Ensemble> {
  const file = resolveEnsemblePath(fileOrName, options);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ColloquyError(
      'ENSEMBLE_INVALID',
      `Could not read ensemble ${file}: ${(error as Error).message}. Check the path and permissions.`,
      { cause: error },
    );
  }
  return parseEnsemble(text, { ...options, file, baseDir: path.dirname(file) });
}

/**
 * Finds an ensemble by path or name: {@link resolveEnsemblePath} first, then llm-orc's ensemble
 * directories (`.llm-orc/ensembles/**` found from `cwd` upward, the library, the global config),
 * where nested names such as `testing/simple` work. Throws naming every place it looked.
 *
 * @example
 * ```ts
 * const file = await findEnsembleFile('testing/simple-script-test', { cwd: process.cwd() });
 * ```
 */
export async function findEnsembleFile(
  fileOrName: string,
  options: LoadEnsembleOptions = {},
): Promise<string> {
  let firstError: unknown;
  try {
    return resolveEnsemblePath(fileOrName, options);
  } catch (error) {
    firstError = error;
  }
  const dirs = llmOrcEnsembleDirs(options.cwd ?? process.cwd());
  for (const dir of dirs) {
    const found = await findEnsembleInTree(dir, fileOrName);
    if (found) return found;
  }
  if (dirs.length === 0) throw firstError;
  throw new ColloquyError(
    'ENSEMBLE_INVALID',
    `${(firstError as Error).message.replace(/\. Pass a path.*$/s, '')}; nor in llm-orc's ${dirs.join(', ')}. ` +
      'Pass a path to a YAML file, or a name (see colloquy list-ensembles).',
  );
}

/** Ensemble files (`.yaml`/`.yml`) in a directory, sorted; `[]` when it does not exist. */
export async function listEnsembleFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir);
    return entries
      .filter((name) => /\.ya?ml$/i.test(name))
      .sort()
      .map((name) => path.join(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
