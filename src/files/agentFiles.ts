/**
 * What `filesFolder` adds to an agent: the `file_search` tool (a local index, or OpenAI's hosted
 * file search over a vector store) and, in `openai` mode, a sync of the folder before the agent's
 * first model call.
 * @module
 */
import type { Tool } from '@openai/agents-core';
import { ConfigError } from '../errors.js';
import { hostedFileSearchTool } from './hostedFileSearch.js';
import { FileIndex } from './localIndex.js';
import { OpenAIVectorStoreSync } from './openaiVectorStore.js';
import type { FileSearchMode, FileSearchOptions } from './options.js';
import { FILE_SEARCH_TOOL_NAME, localFileSearchTool } from './searchTool.js';

/** An agent's files: its folder, its search tool, and how to bring the search up to date. */
export class AgentFiles {
  /** The folder's absolute path. */
  readonly folder: string;
  readonly mode: FileSearchMode;
  /** The tool added to the agent. */
  readonly tool: Tool<any>;
  /** `local` mode: the index. */
  readonly index: FileIndex | undefined;
  /** `openai` mode: the vector store sync. */
  readonly vectorStore: OpenAIVectorStoreSync | undefined;
  /** `openai` mode: the ids the hosted tool searches; filled by the first {@link AgentFiles.ready}. */
  readonly #vectorStoreIds: string[] = [];
  #synced: Promise<void> | undefined;

  constructor(owner: string, folder: string, fileSearch: FileSearchMode | FileSearchOptions = {}) {
    const options: FileSearchOptions =
      typeof fileSearch === 'string' ? { mode: fileSearch } : fileSearch;
    this.mode = options.mode ?? 'local';
    if (this.mode === 'openai') {
      this.vectorStore = new OpenAIVectorStoreSync(folder, { ...options, owner });
      this.folder = this.vectorStore.folder;
      // The array is shared with the tool, so filling it later reaches the model request.
      this.tool = hostedFileSearchTool(this.#vectorStoreIds, {
        name: FILE_SEARCH_TOOL_NAME,
        ...(options.maxResults !== undefined ? { maxNumResults: options.maxResults } : {}),
      });
    } else if (this.mode === 'local') {
      this.index = new FileIndex(folder, { ...options, owner });
      this.folder = this.index.folder;
      this.tool = localFileSearchTool(this.index, folder);
    } else {
      throw new ConfigError(
        `${owner}: fileSearch mode "${String(this.mode)}" is unknown; use 'local' or 'openai'.`,
      );
    }
  }

  /**
   * Brings the search up to date. `local`: updates the index now (searches also do it). `openai`:
   * syncs the folder to its vector store once per process (a failed sync is retried next time).
   */
  async ready(): Promise<void> {
    if (this.index) {
      await this.index.update();
      return;
    }
    this.#synced ??= this.#sync().catch((error: unknown) => {
      this.#synced = undefined;
      throw error;
    });
    await this.#synced;
  }

  /** The vector store ids the hosted tool searches (empty before the first sync). */
  get vectorStoreIds(): readonly string[] {
    return this.#vectorStoreIds;
  }

  async #sync(): Promise<void> {
    const { vectorStoreId } = await this.vectorStore!.sync();
    this.#vectorStoreIds.splice(0, this.#vectorStoreIds.length, vectorStoreId);
  }
}

/**
 * Wraps an agent's instructions so that `openai` mode syncs the folder before the first model
 * call (instructions are resolved right before each call). `local` mode needs no wrapping.
 */
export function instructionsAfterFiles(
  files: AgentFiles,
  instructions: string | ((...args: any[]) => unknown),
): string | ((...args: any[]) => unknown) {
  if (files.mode !== 'openai') return instructions;
  return async (...args: unknown[]) => {
    await files.ready();
    return typeof instructions === 'function' ? String(await instructions(...args)) : instructions;
  };
}
