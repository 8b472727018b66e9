/**
 * Options and result types of agent files (`filesFolder`), with their defaults resolved in one
 * place: where the local index and the OpenAI manifest live, chunk sizes, result counts.
 * @module
 */
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type OpenAI from 'openai';
import { ConfigError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { defaultStorePath } from '../paths.js';
import { resolveSwarmFolder } from './agencySwarmFolder.js';

/** How an agent searches its files: a local full-text index, or an OpenAI vector store. */
export type FileSearchMode = 'local' | 'openai';

/** Options of an agent's file search (every field optional). */
export interface FileSearchOptions {
  /** `local` (default, offline) or `openai` (hosted file search over a vector store). */
  mode?: FileSearchMode;
  /**
   * Directory of the persisted index (and of the OpenAI manifest). Default: `files/` beside the
   * default SQLite store (`<dirname($COLLOQUY_DB or ./.colloquy/colloquy.db)>/files`). When the
   * default store is `:memory:`, the local index is kept in memory only.
   */
  indexDir?: string;
  /** Results returned per search (default 5). */
  maxResults?: number;
  /** Lines per indexed chunk (default 40). */
  chunkLines?: number;
  /** Lines shared by consecutive chunks (default 10). */
  chunkOverlap?: number;
  /** Files larger than this are skipped with a warning (default 2 MiB). */
  maxFileBytes?: number;
  /** `openai` mode: the client (default: the SDK's default OpenAI client, else `new OpenAI()`). */
  client?: OpenAI;
  /** `openai` mode: the vector store's name (default `<folder name>-<8 hex of its path hash>`). */
  vectorStoreName?: string;
  /** Where warnings go (default: the shared pino logger). */
  logger?: Logger;
}

/** One search hit: where it is and what it says. Lines are 1-based and inclusive. */
export interface Citation {
  /** Path relative to the files folder, with `/` separators. */
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  /** The cited lines, whitespace collapsed, at most ~240 characters. */
  excerpt: string;
}

/** {@link FileSearchOptions} with every default filled in. */
export interface ResolvedFileSearchOptions {
  mode: FileSearchMode;
  /** The folder searched: the one named, or its agency-swarm rename `<name>_vs_<id>`. */
  folder: string;
  /** The vector store agency-swarm made for the folder (from its `_vs_<id>` name), else `null`. */
  swarmVectorStoreId: string | null;
  /** `null`: keep the local index in memory only. */
  indexDir: string | null;
  maxResults: number;
  chunkLines: number;
  chunkOverlap: number;
  maxFileBytes: number;
  client: OpenAI | undefined;
  vectorStoreName: string;
  logger: Logger;
}

/** A short, stable hash of a folder's absolute path: names its index and manifest files. */
export function folderKey(folder: string): string {
  return createHash('sha256').update(resolve(folder)).digest('hex').slice(0, 16);
}

/** The default index directory: `files/` beside the default store, `null` for `:memory:`. */
export function defaultIndexDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const storePath = defaultStorePath(env);
  if (storePath === ':memory:') return null;
  return join(dirname(resolve(storePath)), 'files');
}

/** Fills in the defaults and checks the numbers; `owner` names the agent in errors. */
export function resolveFileSearchOptions(
  folder: string,
  options: FileSearchOptions,
  owner: string,
): ResolvedFileSearchOptions {
  if (typeof folder !== 'string' || folder.trim() === '') {
    throw new ConfigError(
      `${owner}: filesFolder is ${JSON.stringify(folder)}; pass the path of a folder of documents.`,
    );
  }
  const mode = options.mode ?? 'local';
  if (mode !== 'local' && mode !== 'openai') {
    throw new ConfigError(
      `${owner}: fileSearch mode "${String(mode)}" is unknown; use 'local' or 'openai'.`,
    );
  }
  const swarm = resolveSwarmFolder(resolve(folder), owner);
  const absolute = swarm.folder;
  const resolved: ResolvedFileSearchOptions = {
    mode,
    folder: absolute,
    swarmVectorStoreId: swarm.vectorStoreId,
    indexDir: options.indexDir !== undefined ? resolve(options.indexDir) : defaultIndexDir(),
    maxResults: positive(options.maxResults ?? 5, 'maxResults', owner),
    chunkLines: positive(options.chunkLines ?? 40, 'chunkLines', owner),
    chunkOverlap: options.chunkOverlap ?? 10,
    maxFileBytes: positive(options.maxFileBytes ?? 2 * 1024 * 1024, 'maxFileBytes', owner),
    client: options.client,
    vectorStoreName:
      options.vectorStoreName ??
      `${absolute.split(/[\\/]/).pop() || 'files'}-${folderKey(absolute).slice(0, 8)}`,
    logger: options.logger ?? getDefaultLogger(),
  };
  const overlap = resolved.chunkOverlap;
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= resolved.chunkLines) {
    throw new ConfigError(
      `${owner}: fileSearch.chunkOverlap is ${String(overlap)}; it must be a whole number from 0 to chunkLines - 1 (${resolved.chunkLines - 1}).`,
    );
  }
  return resolved;
}

function positive(value: number, name: string, owner: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(
      `${owner}: fileSearch.${name} is ${String(value)}; pass a whole number ≥ 1 or omit it.`,
    );
  }
  return value;
}
