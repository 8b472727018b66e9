/**
 * The public names of memory, for the `colloquy/memory` subpath: embedders, the backends, the
 * admin functions behind `colloquy memory` and `/memory`, and the option types.
 * @module
 */
export { cosine, embedderModel, profileEmbedder } from './memory/embedder.js';
export type { Embedder, ProfileEmbedderOptions } from './memory/embedder.js';
export { InMemoryMemory } from './memory/memoryBackend.js';
export { SqliteMemory } from './memory/sqliteMemory.js';
export type { SqliteMemoryOptions } from './memory/sqliteMemory.js';
export { AgencyMemory } from './memory/agencyMemory.js';
export {
  describeForget,
  forgetUser,
  listMemory,
  reembedMemory,
  searchMemory,
} from './memory/admin.js';
export type { UserMemory } from './memory/admin.js';
export { rollbackWorkingMemory, WORKING_MEMORY_TOOL } from './memory/working.js';
export type { CompactionOptions, MemoryOptions, RecallOptions } from './memory/options.js';
export type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  MemoryScope,
  SummaryRecord,
  WorkingMemoryVersion,
} from './memory/types.js';
export type { MemoryOwner } from './memory/recall.js';
export type { MemoryTurn } from './memory/agencyMemory.js';
export type { ResolvedMemory } from './memory/options.js';
export {
  ensembleBackend,
  ensembleMemorySchema,
  namedEmbedder,
  RunMemory,
  runMemory,
} from './memory/ensembleMemory.js';
export type { EnsembleMemoryConfig, TurnMemory } from './memory/ensembleMemory.js';
