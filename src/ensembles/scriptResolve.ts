/**
 * Where a script agent's `script` points. A path (it contains `/`, or ends in a script extension)
 * is looked up as llm-orc does: next to the ensemble file, then `.llm-orc/scripts/`, `.llm-orc/`
 * and the project directory, each also with hyphens read as underscores and without a leading
 * `scripts/`; then Colloquy's bundled primitives (`primitives/file-ops/read_file.py` and the like).
 * Anything else is an inline bash script (`set -euo pipefail`), as in llm-orc: `node tool.js --x`
 * and `echo '{"ok": true}'` both run.
 * @module
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { ColloquyError } from '../errors.js';
import { primitiveNameOf } from './primitives/names.js';

/** Extensions that make a script reference a path even without a `/` (llm-orc's list and ours). */
export const SCRIPT_EXTENSIONS = ['.py', '.sh', '.bash', '.js', '.mjs', '.cjs', '.rb'];

/**
 * @deprecated There is one script protocol (see `llmorc/scriptProtocol.ts`); `script_protocol:`
 * is accepted in files and has no effect.
 */
export type ScriptProtocol = 'colloquy' | 'llm-orc';

/** Options of {@link resolveScript}. */
export interface ResolveScriptOptions {
  /** The ensemble file's directory (searched first). */
  baseDir: string;
  /** The project directory holding `.llm-orc/` (default: none). */
  projectDir?: string;
  /** @deprecated There is one protocol; this is ignored. */
  protocol?: ScriptProtocol;
}

/** A resolved script: a program and its arguments, or a bundled primitive run in-process. */
export type ResolvedScript =
  | { kind: 'spawn'; file: string; args: string[]; path?: string }
  | { kind: 'primitive'; name: string };

/** A script file was not found in any of the places searched. */
export class ScriptNotFoundError extends ColloquyError {
  readonly script: string;
  readonly searched: string[];

  constructor(script: string, searched: string[]) {
    super(
      'ENSEMBLE_INVALID',
      `Script "${script}" does not exist. Looked for it at: ${searched.join(', ')}. ` +
        'Fix the path (relative to the ensemble file, .llm-orc/scripts/ or the project directory) or create the file.',
    );
    this.script = script;
    this.searched = searched;
  }
}

/** Splits a command line into words; `'...'` and `"..."` group words (no escapes, no shell). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/** Whether a reference names a file rather than a command (llm-orc's rule). */
export function looksLikePath(ref: string): boolean {
  return (
    ref.includes('/') ||
    ref.includes('\\') ||
    SCRIPT_EXTENSIONS.some((ext) => ref.toLowerCase().endsWith(ext))
  );
}

/** The directories a relative script path is searched in, in order. */
export function scriptSearchDirs(options: ResolveScriptOptions): string[] {
  const dirs = [path.resolve(options.baseDir)];
  if (options.projectDir) {
    const project = path.resolve(options.projectDir);
    dirs.push(path.join(project, '.llm-orc', 'scripts'), path.join(project, '.llm-orc'), project);
  }
  return [...new Set(dirs)];
}

/** Every candidate file for a relative reference, in search order. */
export function scriptCandidates(ref: string, options: ResolveScriptOptions): string[] {
  const variants = [ref, ref.replaceAll('-', '_')];
  if (ref.startsWith('scripts/')) variants.push(ref.slice('scripts/'.length));
  const out: string[] = [];
  for (const dir of scriptSearchDirs(options))
    for (const variant of new Set(variants)) out.push(path.join(dir, variant));
  return [...new Set(out)];
}

const isFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    // Missing or unreadable: not a file here.
    return false;
  }
};

/** Whether a file starts with `#!` or is a native executable (ELF, Mach-O): it runs itself. */
function runsItself(file: string): boolean {
  const head = Buffer.alloc(4);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const read = readSync(fd, head, 0, 4, 0);
    const magic = head.subarray(0, read);
    return (
      magic.subarray(0, 2).toString('latin1') === '#!' ||
      magic.toString('latin1') === '\x7fELF' ||
      (magic.length === 4 &&
        [0xfeedfacf, 0xcffaedfe, 0xfeedface, 0xcefaedfe].includes(magic.readUInt32BE(0)))
    );
  } catch {
    // Unreadable: not run directly (the interpreter is picked by extension).
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function interpreterFor(file: string): string[] | undefined {
  switch (path.extname(file).toLowerCase()) {
    case '.js':
    case '.mjs':
    case '.cjs':
      return [process.execPath];
    case '.py':
      return ['python3'];
    case '.sh':
    case '.bash':
      return ['bash'];
    case '.rb':
      return ['ruby'];
    default:
      // llm-orc runs a file with any other extension with bash; one with a #! line (or a
      // native executable) runs itself, since bash would misread it.
      return runsItself(file) ? undefined : ['bash'];
  }
}

function spawnFile(file: string, args: string[]): ResolvedScript {
  const interpreter = interpreterFor(file);
  return interpreter
    ? {
        kind: 'spawn',
        file: interpreter[0]!,
        args: [...interpreter.slice(1), file, ...args],
        path: file,
      }
    : { kind: 'spawn', file, args, path: file };
}

/**
 * Resolves a `script` field. Throws {@link ScriptNotFoundError} naming every place searched when
 * it is a path that exists nowhere.
 *
 * @example
 * ```ts
 * resolveScript('primitives/file-ops/read_file.py', { baseDir: '.llm-orc/ensembles', projectDir: '.' });
 * // { kind: 'primitive', name: 'read_file' }
 * ```
 */
export function resolveScript(script: string, options: ResolveScriptOptions): ResolvedScript {
  const trimmed = script.trim();
  if (trimmed === '')
    throw new ColloquyError(
      'ENSEMBLE_INVALID',
      'A script agent has an empty script. Set script to a command or a path.',
    );
  const words = splitCommand(trimmed);
  const first = words[0]!;
  const args = words.slice(1);
  if (
    !trimmed.includes('\n') &&
    (looksLikePath(first) || isFile(path.resolve(options.baseDir, first)))
  ) {
    if (path.isAbsolute(first)) {
      if (isFile(first)) return spawnFile(first, args);
      const primitive = primitiveNameOf(first);
      if (primitive) return { kind: 'primitive', name: primitive };
      throw new ScriptNotFoundError(first, [first]);
    }
    const candidates = scriptCandidates(first, options);
    const found = candidates.find(isFile);
    if (found) return spawnFile(found, args);
    const primitive = primitiveNameOf(first);
    if (primitive) return { kind: 'primitive', name: primitive };
    throw new ScriptNotFoundError(first, [...candidates, '(bundled primitives)']);
  }
  return { kind: 'spawn', file: 'bash', args: ['-c', `set -euo pipefail\n${trimmed}`] };
}

/** A problem with a `script` field for `colloquy validate` (a missing file), or undefined. */
export function checkScriptExists(
  script: string,
  options: ResolveScriptOptions,
): string | undefined {
  try {
    resolveScript(script, options);
    return undefined;
  } catch (error) {
    return error instanceof ScriptNotFoundError
      ? `script file does not exist; looked at ${error.searched.join(', ')}`
      : (error as Error).message;
  }
}
