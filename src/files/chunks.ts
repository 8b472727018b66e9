/**
 * Line windows: files are indexed as overlapping chunks of lines, and a hit is cited by the few
 * lines of its chunk that hold the matched terms.
 * @module
 */
import MiniSearch from 'minisearch';
import { ConfigError } from '../errors.js';

/** A window of lines of one file. Lines are 1-based and inclusive. */
export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

/** A cited line range and its text. */
export interface LineRange {
  startLine: number;
  endLine: number;
  excerpt: string;
}

const MAX_EXCERPT = 240;
/** Lines on either side of the best line that may join its citation. */
const NEAR = 3;

/**
 * Splits text into windows of `size` lines, consecutive windows sharing `overlap` lines. Throws a
 * ConfigError unless `0 <= overlap < size`.
 */
export function chunkText(text: string, size: number, overlap: number): Chunk[] {
  // A window that does not move forward would loop forever.
  if (!Number.isInteger(size) || !Number.isInteger(overlap) || overlap < 0 || overlap >= size)
    throw new ConfigError(
      `chunkText: overlap ${overlap} and size ${size} do not move the window forward; pass whole numbers with 0 <= overlap < size.`,
    );
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const chunks: Chunk[] = [];
  const step = size - overlap;
  for (let start = 0; start < lines.length; start += step) {
    const end = Math.min(start + size, lines.length);
    chunks.push({ startLine: start + 1, endLine: end, text: lines.slice(start, end).join('\n') });
    if (end === lines.length) break;
  }
  return chunks;
}

/** The index's own word splitting and normalization, so line matching agrees with the index. */
export function termsOf(text: string): string[] {
  const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
  const processTerm = MiniSearch.getDefault('processTerm') as (
    term: string,
  ) => string | null | undefined | false;
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term) terms.push(term);
  }
  return terms;
}

/**
 * Narrows a hit to the lines of `chunk` that hold `matched` terms: the line with the most distinct
 * matched terms, widened to matching lines at most 3 lines away. With no matching line (a hit on
 * the file name), the chunk's first lines.
 */
export function citeLines(chunk: Chunk, matched: readonly string[]): LineRange {
  const wanted = new Set(matched);
  const lines = chunk.text.split('\n');
  const counts = lines.map(
    (line) => new Set(termsOf(line).filter((term) => wanted.has(term))).size,
  );
  let best = -1;
  counts.forEach((count, i) => {
    if (count > 0 && (best < 0 || count > counts[best]!)) best = i;
  });
  let first = 0;
  let last = Math.min(lines.length - 1, 4);
  if (best >= 0) {
    first = best;
    last = best;
    for (let i = Math.max(0, best - NEAR); i <= Math.min(lines.length - 1, best + NEAR); i++) {
      if (counts[i]! > 0) {
        first = Math.min(first, i);
        last = Math.max(last, i);
      }
    }
  }
  return {
    startLine: chunk.startLine + first,
    endLine: chunk.startLine + last,
    excerpt: excerptOf(lines.slice(first, last + 1).join(' ')),
  };
}

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_EXCERPT ? flat : `${flat.slice(0, MAX_EXCERPT - 1).trimEnd()}…`;
}
