/**
 * OpenAI's hosted `file_search` tool for `openai` mode, built without importing
 * `@openai/agents-openai`: that package (and the whole OpenAI client under it) would otherwise load
 * with every Agent, though only agents with OpenAI file search use it. The shape is the SDK's
 * public `HostedTool`; `test/files/hostedFileSearch.test.ts` fails if it stops matching what
 * `fileSearchTool` of `@openai/agents-openai` returns.
 * @module
 */
import type { HostedTool } from '@openai/agents-core';

/** Options of {@link hostedFileSearchTool}. */
export interface HostedFileSearchOptions {
  /** The tool's name (default `file_search`). */
  name?: string;
  /** At most this many results per search. */
  maxNumResults?: number;
}

/**
 * The hosted file search tool over `vectorStoreIds`. The array is kept, not copied, so ids filled
 * in later (after the first sync) reach the model request.
 *
 * @example
 * ```ts
 * const ids: string[] = [];
 * const tool = hostedFileSearchTool(ids, { name: 'file_search' });
 * ids.push('vs_123'); // the tool now searches vs_123
 * ```
 */
export function hostedFileSearchTool(
  vectorStoreIds: string[],
  options: HostedFileSearchOptions = {},
): HostedTool {
  const name = options.name ?? 'file_search';
  return {
    type: 'hosted_tool',
    name,
    providerData: {
      type: 'file_search',
      name,
      vector_store_ids: vectorStoreIds,
      max_num_results: options.maxNumResults,
      include_search_results: undefined,
      ranking_options: undefined,
      filters: undefined,
    },
  };
}
