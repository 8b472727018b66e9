/**
 * `colloquy/agency`: the agency's finer parts, for code that goes beyond `Agency` and `Agent`:
 * the `send_message` tool and its factory type, entry routing, rich input preparation, Mermaid
 * and graph options, the call defaults, and the runtime's slots (docs/runtime.md).
 * @module
 */
export { Agent, describeAgent } from './agency/agent.js';
export { createRuntime, defaultRuntime, defineRuntimeSlot } from './runtime.js';
export type { RuntimeSlot } from './runtime.js';
export { Agency, DEFAULT_CHAT_WAIT_MS, DEFAULT_MAX_TURNS } from './agency/agency.js';
export type { MermaidOptions } from './agency/mermaid.js';
export type { CommunicationFlow } from './agency/graph.js';
export { defaultSendMessageTool, SEND_MESSAGE_TOOL_NAME } from './agency/sendMessage.js';
export type {
  SendFunction,
  SendMessageToolContext,
  SendMessageToolFactory,
  SendRequest,
} from './agency/sendMessage.js';
export type { EntryRouter, RouteFunction, RouteRequest } from './agency/router.js';
export {
  AttachmentError,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  mediaTypeOf,
  prepareInput,
} from './agency/input.js';
export type { AgencyInput, Attachment, PreparedInput } from './agency/input.js';
export { isSdkTool, toolsFromFolder } from './tools/toolsFolder.js';
export type { ToolsFolderOptions } from './tools/toolsFolder.js';
export { openApiTools } from './tools/openApiTools.js';
export type { OpenApiToolsOptions } from './tools/openApiTools.js';
export { checkReplayChanges, replayChat } from './agency/replay/replay.js';
export type {
  ReplayChange,
  ReplayChatOptions,
  ReplayModelCalls,
  ReplayResult,
} from './agency/replay/replay.js';
export type {
  AgentBranch,
  AgentSideBySide,
  AlignedRow,
  Branch,
  BranchStep,
  BranchUsage,
  ReplayDifference,
  StepKind,
} from './agency/replay/compare.js';
export { ReplayItemNotFoundError } from './agency/replay/turn.js';
export { StepJournal, journalThreadId, withStepJournal } from './agency/journal/stepJournal.js';
export type { JournalStats, NewEntry } from './agency/journal/stepJournal.js';
export { JOURNAL_SCHEMA_VERSION } from './agency/journal/schema.js';
export type { JournalEntry } from './agency/journal/schema.js';
