/**
 * Files folders as agency-swarm v1 leaves them on disk. On its first run agency-swarm creates a
 * vector store for `files_folder: "./docs"` and renames the folder `docs_vs_<vector store id>`;
 * each uploaded file is renamed `<name>_file-<file id>.<ext>`. A project that moves here keeps
 * `filesFolder: './docs'` (or names the renamed folder) and its uploads: the folder is found,
 * its vector store reused, and files whose name carries an id are not uploaded again.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { ConfigError } from '../errors.js';

/** `<name>_vs_<id>`: a folder agency-swarm renamed after its vector store (ids are `vs_` + 15+ letters/digits). */
const VS_FOLDER = /^(.+)_(vs_[A-Za-z0-9]{15,})$/;
/** `<name>_file-<id>` (the stem of a file agency-swarm uploaded). */
const FILE_ID = /_(file-[A-Za-z0-9]{15,})$/;

/** Where an agent's files are, and the vector store agency-swarm made for them, if it did. */
export interface SwarmFolder {
  folder: string;
  /** From the folder's `_vs_<id>` suffix; `null` for a folder agency-swarm never renamed. */
  vectorStoreId: string | null;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Missing or unreadable: not a folder here.
    return false;
  }
}

/**
 * Resolves a files folder the agency-swarm way: a folder named `<name>_vs_<id>` carries its
 * vector store id; a folder that does not exist is looked for as a renamed sibling
 * `<name>_vs_<id>`. An existing folder without the suffix is used as it is. Two renamed siblings
 * are ambiguous: a `ConfigError` lists them.
 */
export function resolveSwarmFolder(folder: string, owner: string): SwarmFolder {
  const own = VS_FOLDER.exec(basename(folder));
  if (own && isDirectory(folder)) return { folder, vectorStoreId: own[2]! };
  if (isDirectory(folder)) return { folder, vectorStoreId: null };
  const parent = dirname(folder);
  const name = basename(folder);
  let siblings: string[] = [];
  try {
    siblings = readdirSync(parent)
      .filter((entry) => VS_FOLDER.exec(entry)?.[1] === name && isDirectory(join(parent, entry)))
      .sort();
  } catch {
    // No parent folder: the folder is missing, which the scan reports with the fix.
  }
  if (siblings.length > 1) {
    throw new ConfigError(
      `${owner}: filesFolder "${folder}" does not exist, and agency-swarm left several renamed copies of it: ${siblings.join(', ')}. ` +
        'Name the one to use (filesFolder: "./' +
        siblings[0] +
        '") or remove the others.',
    );
  }
  if (siblings.length === 1)
    return { folder: join(parent, siblings[0]!), vectorStoreId: VS_FOLDER.exec(siblings[0]!)![2]! };
  return { folder, vectorStoreId: null };
}

/** The OpenAI file id an agency-swarm upload carries in its name (`report_file-AbC….pdf`), or `null`. */
export function swarmFileId(path: string): string | null {
  const stem = basename(path, extname(path));
  return FILE_ID.exec(stem)?.[1] ?? null;
}
