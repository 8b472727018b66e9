/**
 * Walking a files folder: which files there are (with size and mtime, so unchanged files need
 * not be read), which are binary, and their sha256.
 * @module
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { ConfigError } from '../errors.js';

/** One file found in the folder. */
export interface ScannedFile {
  /** Path relative to the folder, with `/` separators. */
  path: string;
  absolutePath: string;
  size: number;
  mtimeMs: number;
}

/** Reads a file's bytes; tests pass a spy to count reads. */
export type ReadFileFunction = (absolutePath: string) => Promise<Buffer>;

/** The default {@link ReadFileFunction}. */
export const readFileBytes: ReadFileFunction = (absolutePath) => readFile(absolutePath);

/** Extensions of files that are never text (checked before reading). */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp tif tiff psd heic avif pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'zip gz tgz bz2 xz 7z rar tar jar war exe dll so dylib bin o a class wasm pyc db sqlite sqlite3 ' +
    'mp3 mp4 m4a wav ogg flac avi mov mkv webm ttf otf woff woff2 eot'
  ).split(' '),
);

/** Directories never walked into. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.colloquy']);

/** Whether a path's extension marks a binary file. */
export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).slice(1).toLowerCase());
}

/** Whether bytes look binary: a NUL byte in the first 8 KiB. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The sha256 of some bytes, in hex. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Every regular file under `folder` (hidden files, dependency folders and whatever a `.gitignore`
 * in the folder or below it ignores left out), sorted by path. Throws a `ConfigError` when the folder does not exist or is not a directory.
 */
export async function scanFolder(folder: string, owner: string): Promise<ScannedFile[]> {
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      throw new ConfigError(
        `${owner}: filesFolder "${folder}" does not exist. Create it or fix the path.`,
        { cause: error },
      );
    }
    throw error;
  });
  if (!info.isDirectory()) {
    throw new ConfigError(
      `${owner}: filesFolder "${folder}" is not a directory. Pass a folder of documents.`,
    );
  }
  const files: ScannedFile[] = [];
  await walk(folder, folder, files);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The rules of one `.gitignore`, and the folder (relative to the root) it sits in. */
interface IgnoreRules {
  base: string;
  rules: Ignore;
}

/** The rules of `dir/.gitignore`, or none. */
async function gitignoreOf(root: string, dir: string): Promise<IgnoreRules | null> {
  // No .gitignore in this folder (the common case): no rules from it.
  const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => null);
  if (text === null) return null;
  // The .gitignore parser loads with the first .gitignore found.
  const { default: ignore } = await import('ignore');
  return { base: relative(root, dir).split(sep).join('/'), rules: ignore().add(text) };
}

/** Whether a path (relative to the root, `/`-separated) is ignored by a `.gitignore` above it. */
function ignored(path: string, directory: boolean, stack: readonly IgnoreRules[]): boolean {
  return stack.some(({ base, rules }) => {
    const inside = base === '' ? path : path.slice(base.length + 1);
    return rules.ignores(directory ? `${inside}/` : inside);
  });
}

async function walk(
  root: string,
  dir: string,
  out: ScannedFile[],
  inherited: readonly IgnoreRules[] = [],
): Promise<void> {
  const own = await gitignoreOf(root, dir);
  const stack = own ? [...inherited, own] : inherited;
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const absolutePath = join(dir, entry.name);
    const path = relative(root, absolutePath).split(sep).join('/');
    if (ignored(path, entry.isDirectory(), stack)) continue;
    if (entry.isDirectory()) {
      await walk(root, absolutePath, out, stack);
    } else if (entry.isFile()) {
      const info = await stat(absolutePath);
      out.push({ path, absolutePath, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
}
