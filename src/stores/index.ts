/**
 * Thread stores: the {@link ThreadStore} interface and the embedded backends.
 * @module
 */
export type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './types.js';
export { MemoryStore } from './memory.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite.js';
export { JsonFileStore, encodeFileName, type JsonFileStoreOptions } from './jsonFile.js';
export {
  CallbackStore,
  parseSerializedThread,
  type CallbackStoreOptions,
  type SerializedThread,
} from './callback.js';
export { withRetry, isTransient, type RetryOptions } from './retrying.js';
