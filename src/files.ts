/**
 * `colloquy/files`: file search for agents: the local index, an agent's files, the OpenAI
 * vector-store sync and citation helpers (an `Agent`'s `files` option uses these).
 * @module
 */
export { FileIndex } from './files/localIndex.js';
export type { FileIndexOptions, IndexUpdate } from './files/localIndex.js';
export type { ReadFileFunction } from './files/scan.js';
export { AgentFiles } from './files/agentFiles.js';
export { OpenAIVectorStoreSync } from './files/openaiVectorStore.js';
export type {
  OpenAIVectorStoreSyncOptions,
  VectorStoreSyncResult,
} from './files/openaiVectorStore.js';
export { FILE_SEARCH_TOOL_NAME, formatCitations, parseCitations } from './files/searchTool.js';
export { defaultIndexDir } from './files/options.js';
export type { Citation, FileSearchMode, FileSearchOptions } from './files/options.js';
