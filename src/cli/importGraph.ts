/**
 * The local import graph of a module, for `colloquy dev`'s watcher: the module file and every
 * file of the project it imports, transitively (static `import`/`export ... from`, `import()`
 * and `require()` with a literal relative or absolute path; packages are left out), plus the
 * data files its code names by a literal relative path (`./prompts/support.md`, `../data.json`),
 * which agencies read for instructions. Read from the source text, so that it costs no import.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { findModuleFile } from '../paths.js';

/** Code files whose imports are followed. */
const CODE = /\.(?:[cm]?[jt]sx?)$/i;
/** Data files a module may read by a literal path. */
const DATA = /\.(?:md|txt|json|ya?ml)$/i;

const IMPORT_PATTERNS = [
  /\bfrom\s*['"]([^'"\n]+)['"]/g, // import x from '…', export { y } from '…'
  /\bimport\s*['"]([^'"\n]+)['"]/g, // import '…' (side effects)
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, // import('…')
  /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, // require('…')
];
/** A string literal that looks like a relative path to a data file. */
const DATA_LITERAL = /['"`](\.{1,2}\/[^'"`\n$]+)['"`]/g;

/** Whether a specifier names a project file (relative or absolute), not a package. */
function isLocal(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || path.isAbsolute(specifier);
}

/**
 * The file a local specifier imports: as written, or the TypeScript source of a `.js` specifier
 * (`./tools.js` → `./tools.ts`, as TypeScript's NodeNext imports are written), or with an added
 * extension or a folder's index. Undefined when none exists.
 */
export function resolveImport(specifier: string, fromFile: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/[?#].*$/, ''));
  const isFile = (file: string) => existsSync(file) && statSync(file).isFile();
  if (isFile(base)) return base;
  const ts = base.replace(/\.([cm]?)js(x?)$/i, '.$1ts$2');
  if (ts !== base && isFile(ts)) return ts;
  return findModuleFile(base).found;
}

/** The local files one source text names: imported modules and data files. */
function namedFiles(file: string, text: string): string[] {
  const found: string[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1]!;
      if (!isLocal(specifier)) continue;
      const resolved = resolveImport(specifier, file);
      if (resolved) found.push(resolved);
    }
  }
  for (const match of text.matchAll(DATA_LITERAL)) {
    const literal = match[1]!;
    if (!DATA.test(literal)) continue;
    const resolved = path.resolve(path.dirname(file), literal);
    if (existsSync(resolved)) found.push(resolved);
  }
  return found;
}

/**
 * Every project file `entry` depends on, itself included (absolute paths). Files under
 * `node_modules` are left out: installing a package is not an edit to reload for.
 *
 * @example
 * ```ts
 * const files = importGraph('/app/agencies.ts'); // agencies.ts, tools.ts, prompts/support.md
 * ```
 */
export function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [path.resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || /[\\/]node_modules[\\/]/.test(file)) continue;
    seen.add(file);
    if (!CODE.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // deleted between two edits: the next change brings the graph up to date
    }
    pending.push(...namedFiles(file, text));
  }
  return seen;
}
