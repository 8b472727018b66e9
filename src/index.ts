/**
 * Colloquy: multi-agent LLM systems in TypeScript, in which agents talk through isolated,
 * persistent, forkable conversation threads.
 *
 * The root holds what an application writes every day: agents and agencies, the thread manager,
 * the built-in stores, `tool` (re-exported from the SDK, so you need not add
 * `@openai/agents-core` yourself), the error classes, and the event and option types. The rest
 * lives in subpaths, each documented in docs/api.md: `colloquy/agency`, `colloquy/stores`,
 * `colloquy/models`, `colloquy/tracing`, `colloquy/files`, `colloquy/ensembles`,
 * `colloquy/llm-orc`, `colloquy/testing`, `colloquy/server`, `colloquy/queue`, `colloquy/redis`
 * and `colloquy/postgres`.
 *
 * Importing it changes nothing in the SDK: an `Agency` runs agents named by a model string on
 * OpenAI through its own Runner, and your own Runners keep the SDK's default provider (call
 * `useOpenAIByDefault()` from `colloquy/models` to make it OpenAI, as `@openai/agents` does).
 * @module
 */
export { Agent } from './agency/agent.js';
export type { AgentOptions } from './agency/agent.js';
export { Agency } from './agency/agency.js';
export type { AgencyOptions, GetResponseOptions, ResumeOptions } from './agency/agency.js';
export type { ClientToolDefinition } from './agency/clientTools.js';
export type { CallOptions } from './agency/callOptions.js';
export type { Embedder } from './memory/embedder.js';
export type { MemoryOptions } from './memory/options.js';
export type { AgencyHooks } from './agency/runtime.js';
export type { EntryRouter } from './agency/router.js';
export type {
  AgencyStreamEvent,
  AgentRunCompletedEvent,
  AgentRunFailedEvent,
  AgentRunInterruptedEvent,
  AgentRunStartedEvent,
  AgentUpdatedEvent,
  EntryRoutedEvent,
  ItemStreamEvent,
  ModelAttemptEvent,
  ModelStreamEvent,
  RunCompletedEvent,
  RunErrorEvent,
  RunTag,
} from './agency/events.js';
export type { AgencyResponse, TaggedItem } from './agency/result.js';
export type { TokenCounts, Usage } from './usage.js';
export type { ApprovalDecisions, PendingApproval, PendingCall } from './agency/approvals.js';
export { sharedContext } from './agency/sharedContext.js';
export type { SharedContext } from './agency/sharedContext.js';
export type { AgencyInput, Attachment } from './agency/input.js';

// Tools: the SDK's `tool` and the types a tool's code names.
export { tool } from '@openai/agents-core';
export { idempotencyKey } from './agency/journal/journaledTool.js';
export type { FunctionTool, RunContext, Tool } from '@openai/agents-core';
export { toolsFromFolder } from './tools/toolsFolder.js';
export type { ToolsFolderOptions } from './tools/toolsFolder.js';
export { openApiTools } from './tools/openApiTools.js';
export type { OpenApiToolsOptions } from './tools/openApiTools.js';

export { ThreadManager } from './threads/threadManager.js';
export type { ThreadManagerOptions } from './threads/threadManager.js';

// The runtime: in-process state (logger, gates, caches, leases) in one object; docs/runtime.md.
export { ColloquyRuntime } from './runtime.js';
export type { RuntimeOptions } from './runtime.js';
export type { ItemMeta, ThreadItem } from './stores/item.js';
export type { Checkpoint, ThreadRecord, ThreadStore } from './stores/types.js';
export { MemoryStore } from './stores/memory.js';
export { SqliteStore } from './stores/sqlite.js';
export type { SqliteStoreOptions } from './stores/sqlite.js';
export { JsonFileStore } from './stores/jsonFile.js';
export type { JsonFileStoreOptions } from './stores/jsonFile.js';
export { CallbackStore } from './stores/callback.js';
export type { CallbackStoreOptions, SerializedThread } from './stores/callback.js';

export {
  AgencyConfigError,
  ColloquyError,
  ConfigError,
  ConflictError,
  errorInfo,
  SerializationError,
  StoreError,
} from './errors.js';
export type {
  ColloquyErrorCode,
  ColloquyErrorOptions,
  ErrorInfo,
  LibraryErrorCode,
  RequestErrorCode,
} from './errors.js';
export { InstructionsNotFoundError } from './agency/instructions.js';
export { ChatBusyError } from './agency/chatGate.js';
export { AttachmentError } from './agency/input.js';
export { CheckpointNotFoundError, StaleCheckpointError } from './threads/chatHistory.js';
export { LeaseBusyError } from './stores/lease.js';
