/**
 * Colloquy: multi-agent LLM systems in TypeScript, in which agents talk through isolated,
 * persistent, forkable conversation threads. Everything public is exported here by name.
 * @module
 */
export { Agent, describeAgent } from './agency/agent.js';
export type { AgentOptions } from './agency/agent.js';
export { Agency } from './agency/agency.js';
export type { AgencyOptions, GetResponseOptions } from './agency/agency.js';
export type { CommunicationFlow } from './agency/graph.js';
export type { AgencyHooks } from './agency/runtime.js';
export type {
  AgencyStreamEvent,
  AgentRunStartedEvent,
  AgentRunCompletedEvent,
  AgentRunFailedEvent,
  AgentUpdatedEvent,
  ErrorInfo,
  ItemStreamEvent,
  ModelStreamEvent,
  RunCompletedEvent,
  RunErrorEvent,
  RunTag,
} from './agency/events.js';
export type { AgencyResponse, TaggedItem, UsageSummary } from './agency/result.js';
export { defaultSendMessageTool, SEND_MESSAGE_TOOL_NAME } from './agency/sendMessage.js';
export type {
  SendFunction,
  SendMessageToolContext,
  SendMessageToolFactory,
  SendRequest,
} from './agency/sendMessage.js';
export { InstructionsNotFoundError } from './agency/instructions.js';

export { ConversationThread } from './threads/conversationThread.js';
export type { HistoryOptions } from './threads/conversationThread.js';
export { ThreadManager } from './threads/threadManager.js';
export type { ThreadManagerOptions } from './threads/threadManager.js';
export { threadIdFor, parseThreadId } from './threads/threadId.js';
export type { ItemMeta, ThreadItem } from './threads/item.js';

export type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './stores/types.js';
export { MemoryStore } from './stores/memory.js';

export { ScriptedModel, ScriptError } from './models/scriptedModel.js';
export type {
  ScriptedCall,
  ScriptedModelOptions,
  ScriptedResponder,
  ScriptedStep,
  ScriptedToolCall,
  ScriptedUsage,
} from './models/scriptedModel.js';
export { lastItem, lastUserText, toolOutputsSinceUser } from './models/requestText.js';
export { modelProfileSchema, PROVIDERS } from './models/profile.js';
export type { ModelProfile, ProviderName } from './models/profile.js';

export { createDemoAgency, DEMO_MESSAGE } from './demo/demoAgency.js';
export type { DemoAgencyOptions } from './demo/demoAgency.js';

export {
  AgencyConfigError,
  ColloquyError,
  ConfigError,
  ConflictError,
  SerializationError,
  StoreError,
} from './errors.js';
export type { ColloquyErrorCode, ColloquyErrorOptions } from './errors.js';
