/**
 * Colloquy: multi-agent LLM systems in TypeScript, in which agents talk through isolated,
 * persistent, forkable conversation threads. Everything public is exported here by name.
 * @module
 */
import { useOpenAIByDefault } from './models/openaiDefault.js';

// Agents named by a model string run on OpenAI, as with `@openai/agents` (see openaiDefault.ts).
useOpenAIByDefault();

export { Agent, describeAgent } from './agency/agent.js';
export type { AgentOptions } from './agency/agent.js';
export { Agency } from './agency/agency.js';
export type { AgencyOptions, GetResponseOptions } from './agency/agency.js';
export type { MermaidOptions } from './agency/mermaid.js';
export type { CommunicationFlow } from './agency/graph.js';
export type { AgencyHooks } from './agency/runtime.js';
export type {
  AgencyStreamEvent,
  AgentRunStartedEvent,
  AgentRunCompletedEvent,
  AgentRunFailedEvent,
  AgentUpdatedEvent,
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
export type { ApprovalDecisions, PendingApproval, PendingCall } from './agency/approvals.js';
export type { ResumeOptions } from './agency/agency.js';
export type { EntryRouter, RouteFunction, RouteRequest } from './agency/router.js';
export type {
  AgentRunInterruptedEvent,
  EntryRoutedEvent,
  ModelAttemptEvent,
} from './agency/events.js';
// Issue 15: agency defaults, rich input, tools, cost.
export { DEFAULT_CHAT_WAIT_MS, DEFAULT_MAX_TURNS } from './agency/agency.js';
export { sharedContext } from './agency/sharedContext.js';
export type { SharedContext } from './agency/sharedContext.js';
export { ChatBusyError } from './agency/chatGate.js';
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
export { KNOWN_MODEL_PRICES, modelPrice, setModelPrice } from './models/pricing.js';
export type { ModelPrice } from './models/pricing.js';

export { ConversationThread } from './threads/conversationThread.js';
export type { HistoryOptions } from './threads/conversationThread.js';
export { ThreadManager } from './threads/threadManager.js';
export type { ThreadManagerOptions } from './threads/threadManager.js';
export { threadIdFor, parseThreadId } from './threads/threadId.js';
export type { ItemMeta, ThreadItem } from './stores/item.js';
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
export { WorkflowThread, WORKFLOW_SCHEMA_VERSION } from './ensembles/workflowThread.js';
export type { WorkflowState } from './ensembles/workflowThread.js';
export { ThreadSession } from './threads/threadSession.js';
export type { ThreadSessionOptions } from './threads/threadSession.js';

export type {
  AppendOptions,
  Checkpoint,
  ForkOptions,
  ReadRange,
  ThreadRecord,
  ThreadStore,
} from './stores/types.js';
export { MemoryStore } from './stores/memory.js';
export { SqliteStore } from './stores/sqlite.js';
export type { SqliteStoreOptions } from './stores/sqlite.js';
export { JsonFileStore } from './stores/jsonFile.js';
export type { JsonFileStoreOptions } from './stores/jsonFile.js';
// Hardening (issue 17): id checks every store applies, and error redaction.
export { checkIds, isStorableId } from './stores/ids.js';
export { envSecrets, redactErrorInPlace } from './redact.js';
export type { RedactOptions } from './redact.js';
export { CallbackStore } from './stores/callback.js';
export type { CallbackStoreOptions, SerializedThread } from './stores/callback.js';
export { withRetry, isTransient } from './stores/retrying.js';
export type { RetryOptions } from './stores/retrying.js';
export { defaultStorePath, openDefaultStore, openStore } from './stores/openStore.js';
export { holdLease, LeaseBusyError, leasesInProcess, MemoryLeases } from './stores/lease.js';
export type { HoldLeaseOptions, LeaseHandle, Leases } from './stores/lease.js';
export type { SqliteLeases } from './stores/sqliteLeases.js';
export {
  archiveThreadId,
  checkFork,
  checkpointExists,
  checkReset,
  isArchiveThreadId,
  resolveRange,
  serializeItem,
  threadNotFound,
} from './stores/common.js';
export { WholeThreadStore } from './stores/wholeThread.js';
export type { Span } from './stores/common.js';

export { useOpenAIByDefault } from './models/openaiDefault.js';
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
export { createProfileRegistry, defaultUserProfilesPath, loadProfiles } from './models/profiles.js';
export type {
  LoadProfilesOptions,
  ProfileMap,
  ProfileRegistry,
  ProfileSource,
  ProjectProfiles,
} from './models/profiles.js';
export { createModel, profileModelSettings, ProfileModelProvider } from './models/resolve.js';
export type { CreateModelOptions } from './models/resolve.js';
export { checkProfileKeys } from './models/apiKeys.js';
export { FallbackModel } from './models/fallbackModel.js';
export type { FallbackMember, FallbackModelOptions } from './models/fallbackModel.js';
export { colloquyRetryPolicy, retrySettings } from './models/retry.js';
export type { ColloquyRetryPolicyOptions, RetrySettingsOptions } from './models/retry.js';
export type {
  AttemptReporterOptions,
  ModelAttempt,
  ModelAttemptListener,
} from './models/attempts.js';
export { ReplayModel } from './models/replayModel.js';
export type { ReplayModelOptions } from './models/replayModel.js';
export { RecordingModel } from './models/recordingModel.js';
export type { RecordingModelOptions } from './models/recordingModel.js';
export { Cassette, CASSETTE_FORMAT, CASSETTE_VERSION } from './models/cassette.js';
export type { CassetteInteraction, CassetteOptions, RecordedResponse } from './models/cassette.js';
export type { NormalizedItem, NormalizedRequest } from './models/requestKey.js';
export {
  configureTracing,
  InMemoryTracingProcessor,
  OpenTelemetryTracingProcessor,
} from './models/tracing.js';
export { withAttemptListener } from './models/attempts.js';
export type {
  ConfigureTracingOptions,
  OpenTelemetryTracingProcessorOptions,
  RecordedSpan,
} from './models/tracing.js';
export { createLogger, getDefaultLogger, setDefaultLogger, LOG_LEVELS } from './logger.js';
export type { CreateLoggerOptions, LogLevel } from './logger.js';
export { loadProjectConfig, PROJECT_CONFIG_FILE, projectConfigSchema } from './config.js';
export type { LoadProjectConfigOptions, ProjectConfig } from './config.js';

export { runEnsemble } from './ensembles/run.js';
export type { RunEnsembleOptions } from './ensembles/run.js';
export {
  EnsembleValidationError,
  listEnsembleFiles,
  loadEnsemble,
  parseEnsemble,
  resolveEnsemblePath,
} from './ensembles/load.js';
export type { LoadEnsembleOptions } from './ensembles/load.js';
export { formatEnsembleIssue, validateEnsembleText } from './ensembles/validate.js';
export type {
  EnsembleIssue,
  EnsembleValidation,
  ValidateEnsembleOptions,
} from './ensembles/validate.js';
export { ensembleFileSchema } from './ensembles/schema.js';
export type {
  AgentExecution,
  ConversationLimits,
  Ensemble,
  EnsembleAgent,
  EnsembleDependency,
} from './ensembles/schema.js';
export { checkCondition, compileCondition, ConditionError } from './ensembles/conditions.js';
export type {
  CompiledCondition,
  ConditionContext,
  ConditionProblem,
} from './ensembles/conditions.js';
export { createConversationState } from './ensembles/state.js';
export type {
  AnsweredRequest,
  ConversationState,
  ConversationTurn,
  EnsembleUsage,
} from './ensembles/state.js';
export { COMPLETION_REASONS } from './ensembles/result.js';
export type {
  CompletionReason,
  ConversationResult,
  EnsembleRunFailure,
} from './ensembles/result.js';
export { AgentRunError, runScriptAgent } from './ensembles/scriptAgent.js';
export type {
  ScriptAgentOptions,
  ScriptAgentReply,
  ScriptAgentRequest,
  ScriptAgentRun,
} from './ensembles/scriptAgent.js';
export {
  LlmInputHandler,
  ScriptedInputHandler,
  TtyInputHandler,
} from './ensembles/inputHandlers.js';
export type {
  InputHandler,
  InputRequest,
  LlmInputHandlerOptions,
  ScriptedAnswers,
  TtyInputHandlerOptions,
} from './ensembles/inputHandlers.js';
export type { AgentModel, CreateModel } from './ensembles/agentModels.js';
export type { EnsembleEvent } from './ensembles/events.js';

// Ensemble run state and engine (typed saved runs, schemas, run lease).
export { readEnsembleRun, ensembleRunExists } from './ensembles/savedRun.js';
export type { SavedEnsembleRun } from './ensembles/savedRun.js';
export {
  RUN_STATE_SCHEMA_VERSION,
  agentOutcomeSchema,
  conversationResultSchema,
  conversationTurnSchema,
  runDataSchema,
  workflowStateSchema,
} from './ensembles/runState.js';
export type {
  AgentInput,
  AgentOutcome,
  ConversationHead,
  RunData,
  TurnStatus,
} from './ensembles/runState.js';
export { RunBusyError, RUN_LEASE_TTL_MS } from './ensembles/runLease.js';
export type { PromptFormatter } from './ensembles/llmAgent.js';
export type { ResolveEnsemble } from './ensembles/children.js';

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

export {
  AgencyConfigError,
  ColloquyError,
  ConfigError,
  ConflictError,
  DOCS_URL,
  docsUrl,
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

// llm-orc compatibility (format, script protocol, primitives, profiles, results).
export { deriveAgentProfiles } from './ensembles/llmorc/agentProfiles.js';
export type { AgentProfiles } from './ensembles/llmorc/agentProfiles.js';
export { findLlmOrcDir, listEnsembleEntries } from './ensembles/llmorc/project.js';
export type { EnsembleEntry } from './ensembles/llmorc/project.js';
export { loadLlmOrcProfileSources } from './ensembles/llmorc/profiles.js';
export type { LlmOrcProfileOptions } from './ensembles/llmorc/profiles.js';
export { llmOrcPrompt, llmOrcPromptFromContext } from './ensembles/llmorc/prompt.js';
export type { LlmOrcPromptOptions, PromptDependency } from './ensembles/llmorc/prompt.js';
export { llmOrcView, writeArtifacts } from './ensembles/llmorc/results.js';
export type {
  LlmOrcAgentResult,
  LlmOrcView,
  LlmOrcViewOptions,
} from './ensembles/llmorc/results.js';
export {
  llmOrcScriptInput,
  parseLlmOrcOutput,
  scriptProtocolOf,
} from './ensembles/llmorc/scriptProtocol.js';
export type {
  LlmOrcDependencyResult,
  LlmOrcScriptInput,
  LlmOrcScriptInputOptions,
  LlmOrcScriptOutput,
} from './ensembles/llmorc/scriptProtocol.js';
export type { LlmOrcAgentSettings } from './ensembles/llmorc/agentKeys.js';
export {
  checkScriptExists,
  resolveScript,
  ScriptNotFoundError,
} from './ensembles/scriptResolve.js';
export type {
  ResolvedScript,
  ResolveScriptOptions,
  ScriptProtocol,
} from './ensembles/scriptResolve.js';
export { PRIMITIVES } from './ensembles/primitives/registry.js';
export type { Primitive, PrimitiveRequest } from './ensembles/primitives/types.js';
export { findEnsembleFile } from './ensembles/load.js';
// dispatch: agents (llm-orc's dynamic dispatch).
export type { AgentKind } from './ensembles/schema.js';
export { parseDispatch } from './ensembles/dispatch.js';
export type { DispatchSpec } from './ensembles/dispatch.js';
export { checkSiblingEnsemble } from './ensembles/children.js';
export { checkYamlLimits } from './yamlErrors.js';
export type { YamlLimits, YamlLimitProblem } from './yamlErrors.js';
export { createMockModel } from './models/llmOrcProviders.js';

// Observability (issue 13): tracing by default, trace stores, the module loader.
export {
  flushTracing,
  getTraceRecorder,
  setupTracing,
  shutdownTracing,
  tracingOffByEnv,
} from './tracing/setup.js';
export type { SetupTracingOptions } from './tracing/setup.js';
export { TraceRecorder } from './tracing/recorder.js';
export type { LiveTrace, TraceBinding, TraceListener } from './tracing/recorder.js';
export { traceCall } from './tracing/traceCall.js';
export type { TraceCallOptions } from './tracing/traceCall.js';
export { createOtlpListener } from './tracing/otlp.js';
export type { OtlpListener, OtlpListenerOptions } from './tracing/otlp.js';
export { MemoryTraceStore, TRACE_SCHEMA_VERSION } from './stores/traceStore.js';
export type {
  SpanKind,
  SpanRecord,
  StoredTrace,
  TraceFilter,
  TraceStore,
  TraceSummary,
  TraceUsage,
} from './stores/traceStore.js';
export { SqliteTraceStore } from './stores/sqliteTraces.js';
export type { SqliteTraceStoreOptions } from './stores/sqliteTraces.js';
export { linkTraceStore, traceStoreFor } from './stores/traceStores.js';
export { TracedModel, tracedModel } from './models/tracedModel.js';
// Batched appends (agency speed): one transaction for a call's threads where the store allows.
export { appendBatch } from './stores/appendBatch.js';
export type { AppendBatchEntry } from './stores/types.js';
