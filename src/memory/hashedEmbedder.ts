/**
 * A deterministic offline embedder for tests and the demo (published in `colloquy/testing`):
 * a hashed bag of words, so texts that share words are similar and no network is needed.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Embedder } from './embedder.js';

/** Options of {@link HashedEmbedder}. */
export interface HashedEmbedderOptions {
  /** Vector size (default 256). */
  dimensions?: number;
  /** The model name vectors are stored under (default `hashed-bow-<dimensions>`). */
  model?: string;
}

const STOP_WORDS = new Set(
  'a an and are as at be by do does for from i in is it me my of on or the to was what which who with you your'.split(
    ' ',
  ),
);

/**
 * Hashes each word (lower-cased, a trailing plural `s` dropped, common words skipped) into one of
 * `dimensions` buckets with a ±1 sign, and normalises the counts to unit length.
 *
 * @example
 * ```ts
 * const embedder = new HashedEmbedder();
 * const agency = new Agency({ entryPoints: [agent], memory: { embedder, recall: {} } });
 * ```
 */
export class HashedEmbedder implements Embedder {
  readonly dimensions: number;
  readonly model: string;
  /** How many texts were embedded (for tests). */
  embedded = 0;

  constructor(options: HashedEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 256;
    this.model = options.model ?? `hashed-bow-${this.dimensions}`;
  }

  embed(texts: string[]): Promise<number[][]> {
    this.embedded += texts.length;
    return Promise.resolve(texts.map((text) => this.vector(text)));
  }

  /** The vector of one text, synchronously. */
  vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (STOP_WORDS.has(raw)) continue;
      const word = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
      const hash = createHash('sha1').update(word).digest();
      const bucket = hash.readUInt32BE(0) % this.dimensions;
      vector[bucket]! += hash[4]! & 1 ? 1 : -1;
    }
    const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
    return norm === 0 ? vector : vector.map((v) => v / norm);
  }
}
