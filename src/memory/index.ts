/**
 * The public names of memory, for the `colloquy/memory` subpath: embedders, the backends, the
 * admin functions behind `colloquy memory` and `/memory`, and the option types.
 * @module
 */
export { cosine, embedderModel, profileEmbedder } from './embedder.js';
export type { Embedder, ProfileEmbedderOptions } from './embedder.js';
export { InMemoryMemory } from './memoryBackend.js';
export { SqliteMemory } from './sqliteMemory.js';
export type { SqliteMemoryOptions } from './sqliteMemory.js';
export { AgencyMemory } from './agencyMemory.js';
export { describeForget, forgetUser, listMemory, reembedMemory, searchMemory } from './admin.js';
export type { UserMemory } from './admin.js';
export { rollbackWorkingMemory, WORKING_MEMORY_TOOL } from './working.js';
export type { CompactionOptions, MemoryOptions, RecallOptions } from './options.js';
export type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  MemoryScope,
  SummaryRecord,
  WorkingMemoryVersion,
} from './types.js';
