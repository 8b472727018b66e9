/**
 * `colloquy/stores`: threads and stores beyond the built-in four: the `ThreadStore` contract's
 * option types, opening a store from a URL, leases, retries, batched appends, the helpers the
 * backends share (for writing your own), thread ids, chat export/import, checkpoints and forks,
 * budgeted views, and the SDK `Session` over a thread.
 * @module
 */
export { CallbackStore } from './stores/callback.js';
export { JsonFileStore } from './stores/jsonFile.js';
export { MemoryStore } from './stores/memory.js';
export { SqliteStore } from './stores/sqlite.js';
export type {
  AppendBatchEntry,
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './stores/types.js';
export type { ItemMeta, ThreadItem } from './stores/item.js';
export { checkIds, isStorableId } from './stores/ids.js';
export { withRetry, isTransient } from './stores/retrying.js';
export type { RetryOptions } from './stores/retrying.js';
export { defaultStorePath, openStore } from './stores/openStore.js';
export { openDefaultStore } from './stores/defaultStore.js';
export { ConversationsStore } from './stores/conversations.js';
export type { ConversationsStoreOptions } from './stores/conversations.js';
export type { ConversationsHttpOptions } from './stores/conversationsHttp.js';
export { holdLease, LeaseBusyError, leasesInProcess, MemoryLeases } from './stores/lease.js';
export type { HoldLeaseOptions, LeaseHandle, Leases } from './stores/lease.js';
export type { SqliteLeases } from './stores/sqliteLeases.js';
export { activeFences, isLeaseLost, LeaseLostError, withFence } from './stores/fence.js';
export type { Fence } from './stores/fence.js';
export {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkRollback,
  isArchiveThreadId,
  rangeSpan,
  resolveRange,
  serializeItem,
  threadNotFound,
} from './stores/common.js';
// Renamed on the way out: a position range, not a tracing span (see `colloquy/tracing`).
export type { Span as PositionRange } from './stores/common.js';
export { WholeThreadStore } from './stores/wholeThread.js';
export { BaseStore, ForkRequest, RollbackRequest } from './stores/baseStore.js';
export type { BatchEntry, CheckpointEntry } from './stores/baseStore.js';
export { storeCapabilities } from './stores/capabilities.js';
export type { StoreCapabilities } from './stores/capabilities.js';
export { appendBatch } from './stores/appendBatch.js';

export { ConversationThread } from './threads/conversationThread.js';
export type { HistoryOptions } from './threads/conversationThread.js';
export { ThreadManager } from './threads/threadManager.js';
export { threadIdFor, parseThreadId } from './threads/threadId.js';
export {
  CheckpointNotFoundError,
  StaleCheckpointError,
  checkpointChat,
  forkChat,
  liveThreads,
  rollbackChat,
} from './threads/chatHistory.js';
export {
  CHAT_FORMAT,
  CHAT_FORMAT_VERSION,
  chatEnvelopeSchema,
  exportChat,
  importChat,
  parseChatEnvelope,
} from './threads/serialization.js';
export type { ChatEnvelope } from './threads/serialization.js';
export { budgetedView, estimateTokens } from './threads/view.js';
export type { TokenEstimator, ViewOptions } from './threads/view.js';
export { ThreadSession } from './threads/threadSession.js';
export type { ThreadSessionOptions } from './threads/threadSession.js';
