/**
 * Similarity by an embedder: the cosine similarity of the answer's and the expected text's
 * embeddings, clamped to 0..1.
 * @module
 */
import { ConfigError } from '../../errors.js';
import type { Embedder } from '../../memory/embedder.js';
import type { Score, Scorer } from '../types.js';

/** Turns texts into vectors: the memory module's interface, so one embedder serves both. */
export type { Embedder };

/** The cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length)
    throw new ConfigError(
      `Cannot compare embeddings of ${a.length} and ${b.length} dimensions; the embedder must return vectors of one length.`,
    );
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Options of {@link similarity}. */
export interface SimilarityOptions {
  embedder: Embedder;
  /** The text to compare with (default: the case's `expected`). */
  expected?: string;
}

/** The cosine similarity of the answer and the expected text, clamped to 0..1. */
export function similarity(options: SimilarityOptions): Scorer {
  return async ({ transcript, expected }): Promise<Score> => {
    const want = options.expected ?? expected;
    if (want === undefined)
      return { score: 0, reason: 'the case has no expected answer to compare with' };
    const vectors = await options.embedder.embed([transcript.output, want]);
    if (vectors.length !== 2)
      throw new ConfigError(
        `The embedder returned ${vectors.length} vectors for 2 texts; it must return one per text.`,
      );
    const cosine = cosineSimilarity(vectors[0]!, vectors[1]!);
    const score = Math.max(0, Math.min(1, cosine));
    return { score, reason: `cosine similarity ${cosine.toFixed(3)} to the expected answer` };
  };
}
