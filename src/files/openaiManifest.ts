/**
 * The small manifest kept beside the local index in `openai` mode: which vector store holds the
 * folder and, per file, the sha256 and the OpenAI file id of the uploaded version.
 *
 * Changelog: schemaVersion 1 — first version.
 * @module
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SerializationError, StoreError } from '../errors.js';
import { readOptionalFile } from './indexFile.js';

const manifestSchema = z.object({
  schemaVersion: z.literal(1),
  folder: z.string(),
  vectorStoreId: z.string(),
  vectorStoreName: z.string(),
  files: z.record(
    z.string(),
    z.object({ size: z.number(), mtimeMs: z.number(), sha256: z.string(), fileId: z.string() }),
  ),
});

/** A vector store manifest. */
export type VectorStoreManifest = z.infer<typeof manifestSchema>;

/** One uploaded file in a {@link VectorStoreManifest}. */
export type ManifestEntry = VectorStoreManifest['files'][string];

/** Reads a manifest; `null` when there is none. Throws on unreadable or malformed content. */
export async function loadManifest(path: string): Promise<VectorStoreManifest | null> {
  const text = await readOptionalFile(path, 'the vector store manifest');
  if (text === null) return null;
  try {
    return manifestSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new SerializationError(
      `The vector store manifest "${path}" is unreadable (${(error as Error).message.slice(0, 200)}). ` +
        'Delete it: the folder is then uploaded again on the next sync (old uploads stay in the vector store).',
      { cause: error },
    );
  }
}

/** Writes a manifest atomically. */
export async function saveManifest(path: string, manifest: VectorStoreManifest): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, JSON.stringify(manifestSchema.parse(manifest), null, 1));
  } catch (error) {
    throw new StoreError(
      `Could not write the vector store manifest "${path}": ${(error as Error).message}. ` +
        'Make its directory writable, or point fileSearch.indexDir somewhere that is.',
      { cause: error },
    );
  }
}
