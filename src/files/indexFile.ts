/**
 * The persisted form of a local files index: which files were indexed (size, mtime, sha256, how
 * many chunks) plus the MiniSearch index itself, in one JSON file written atomically.
 *
 * Changelog: schemaVersion 1 — first version.
 * @module
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SerializationError, StoreError } from '../errors.js';

/** The current schema version of index files. */
export const FILE_INDEX_SCHEMA_VERSION = 1;

const fileEntrySchema = z.object({
  size: z.number(),
  mtimeMs: z.number(),
  /** Empty for files skipped by extension (never read). */
  sha256: z.string(),
  /** Chunks `<path>#0` … `<path>#<chunks - 1>` are in the index. */
  chunks: z.number().int().nonnegative(),
  /** Why the file is not indexed (`binary`, `too large`), if it is not. */
  skipped: z.string().optional(),
});

const indexFileSchema = z.object({
  schemaVersion: z.literal(FILE_INDEX_SCHEMA_VERSION),
  folder: z.string(),
  chunkLines: z.number().int(),
  chunkOverlap: z.number().int(),
  files: z.record(z.string(), fileEntrySchema),
  /** `MiniSearch#toJSON()`. */
  index: z.record(z.string(), z.unknown()),
});

/** What the index knows about one file. */
export type FileEntry = z.infer<typeof fileEntrySchema>;

/** A whole index file. */
export type IndexFileData = z.infer<typeof indexFileSchema>;

/**
 * Reads a file that may not exist yet: `null` when it is missing, a `StoreError` naming `what`
 * when it exists but cannot be read.
 */
export async function readOptionalFile(path: string, what: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new StoreError(
      `Could not read ${what} "${path}": ${(error as Error).message}. Check its permissions.`,
      {
        cause: error,
      },
    );
  }
}

/** Reads an index file; `null` when there is none. Throws on unreadable or malformed content. */
export async function loadIndexFile(path: string): Promise<IndexFileData | null> {
  const text = await readOptionalFile(path, 'the files index');
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw corrupt(path, 'it is not valid JSON', error);
  }
  const parsed = indexFileSchema.safeParse(json);
  if (!parsed.success)
    throw corrupt(path, parsed.error.issues[0]?.message ?? 'unexpected shape', parsed.error);
  return parsed.data;
}

/** Writes an index file atomically (a crash leaves the old or the new file, never half of one). */
export async function saveIndexFile(path: string, data: IndexFileData): Promise<void> {
  const checked = indexFileSchema.parse(data);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, JSON.stringify(checked));
  } catch (error) {
    throw new StoreError(
      `Could not write the files index "${path}": ${(error as Error).message}. ` +
        'Make its directory writable, or point fileSearch.indexDir somewhere that is.',
      { cause: error },
    );
  }
}

function corrupt(path: string, reason: string, cause: unknown): SerializationError {
  return new SerializationError(
    `The files index "${path}" is unreadable (${reason}). Delete it; it is rebuilt from the folder on the next search.`,
    { cause },
  );
}
