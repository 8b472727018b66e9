/**
 * Seeing and controlling memory, for the CLI (`colloquy memory …`) and the HTTP routes under
 * `/memory`: list, search, forget (the right to be forgotten) and re-embed after a change of
 * embedder.
 * @module
 */
import { embedderModel, type Embedder } from './embedder.js';
import { assertSameEmbedding } from './options.js';
import type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  WorkingMemoryVersion,
} from './types.js';

/** What memory holds about a user. */
export interface UserMemory {
  records: MemoryRecord[];
  working: WorkingMemoryVersion[];
}

/** A user's remembered messages and working-memory versions (of one agency, or all). */
export async function listMemory(
  backend: MemoryBackend,
  userId: string,
  agency?: string,
): Promise<UserMemory> {
  const records = await backend.list({ userId, ...(agency !== undefined ? { agency } : {}) });
  const agencies = agency !== undefined ? [agency] : [...new Set(records.map((r) => r.agency))];
  const working = (
    await Promise.all(agencies.map((name) => backend.workingVersions(name, userId)))
  ).flat();
  return { records, working };
}

/** The user's remembered messages most similar to `query`. */
export async function searchMemory(
  backend: MemoryBackend,
  embedder: Embedder,
  query: string,
  options: { userId: string; agency?: string | undefined; topK?: number },
): Promise<MemoryHit[]> {
  assertSameEmbedding(await backend.embedding(), embedder);
  const [vector] = await embedder.embed([query]);
  return backend.search(
    vector!,
    { userId: options.userId, ...(options.agency !== undefined ? { agency: options.agency } : {}) },
    options.topK ?? 10,
  );
}

/** Deletes everything memory holds about a user and says what it deleted. */
export function forgetUser(
  backend: MemoryBackend,
  userId: string,
  agency?: string,
): Promise<ForgetReport> {
  return backend.forget(userId, agency);
}

/** The one-line account of a {@link ForgetReport}. */
export function describeForget(report: ForgetReport, userId: string, agency?: string): string {
  return (
    `Forgot user ${userId}${agency ? ` in agency ${agency}` : ''}: ${report.vectors} remembered messages (vectors), ` +
    `${report.workingVersions} working-memory versions, ${report.summaries} summaries.`
  );
}

/**
 * Embeds every stored message again with `embedder` and replaces the stored vectors (all at once,
 * so the store never mixes models). Returns how many were re-embedded.
 */
export async function reembedMemory(backend: MemoryBackend, embedder: Embedder): Promise<number> {
  const model = embedderModel(embedder);
  const entries: MemoryEntry[] = [];
  for await (const batch of backend.entries()) {
    const vectors = await embedder.embed(batch.map((entry) => entry.text));
    batch.forEach((entry, i) =>
      entries.push({ ...entry, vector: vectors[i]!, model, dimensions: embedder.dimensions }),
    );
  }
  await backend.replaceVectors(entries);
  return entries.length;
}
