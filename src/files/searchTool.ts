/**
 * The `file_search` function tool of an agent with a local files index, and the compact listing
 * of citations it returns (`[1] guide.md:12-18 — excerpt`), easy for a model to quote.
 * @module
 */
import { tool } from '@openai/agents-core';
import type { FunctionTool } from '@openai/agents-core';
import { z } from 'zod';
import type { FileIndex } from './localIndex.js';
import type { Citation } from './options.js';

/** The name of the tool, in both local and OpenAI modes. */
export const FILE_SEARCH_TOOL_NAME = 'file_search';

/** Formats citations as numbered lines: `[n] path:start-end — excerpt`. */
export function formatCitations(citations: readonly Citation[]): string {
  return citations
    .map((c, i) => `[${i + 1}] ${c.path}:${c.startLine}-${c.endLine} — ${c.excerpt}`)
    .join('\n');
}

/**
 * Parses a listing made by {@link formatCitations} back into `{ path, startLine, endLine,
 * excerpt }` entries (scores are not in the listing). Handy in scripted models and tests.
 */
export function parseCitations(listing: string): Array<Omit<Citation, 'score'>> {
  const entries: Array<Omit<Citation, 'score'>> = [];
  for (const line of listing.split('\n')) {
    const match = /^\[\d+\] (.+):(\d+)-(\d+) — (.*)$/.exec(line);
    if (match) {
      entries.push({
        path: match[1]!,
        startLine: Number(match[2]),
        endLine: Number(match[3]),
        excerpt: match[4]!,
      });
    }
  }
  return entries;
}

const parameters = z.object({
  query: z.string().describe('Words to look for in the files, e.g. "refund window days".'),
});

/** A `file_search` tool over a local {@link FileIndex}; each call brings the index up to date first. */
export function localFileSearchTool(
  index: FileIndex,
  folderLabel: string,
): FunctionTool<unknown, typeof parameters> {
  return tool({
    name: FILE_SEARCH_TOOL_NAME,
    description:
      `Full-text search over the files in ${folderLabel}. Returns numbered matches as ` +
      '"[n] path:startLine-endLine — excerpt"; cite answers as path:startLine-endLine.',
    parameters,
    // Index failures (an unwritable index dir, a corrupt index file) must end the run, not be
    // turned into a tool output that a model might ignore.
    errorFunction: null,
    execute: async ({ query }) => {
      const citations = await index.search(query);
      if (citations.length === 0) {
        return `No matches for "${query}" in ${folderLabel}. Try other or fewer words.`;
      }
      return formatCitations(citations);
    },
  });
}
