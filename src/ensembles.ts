/**
 * `colloquy/ensembles`: ensembles (llm-orc's YAML format run on Colloquy threads): run, load and
 * validate them, conditions, conversation state and results, script agents, input handlers,
 * events, and saved run state. The llm-orc compatibility helpers are in `colloquy/llm-orc`.
 * @module
 */
export { runEnsemble } from './ensembles/run.js';
export type { RunEnsembleOptions } from './ensembles/run.js';
export {
  EnsembleValidationError,
  findEnsembleFile,
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
  AgentKind,
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
  LlmOrcUsage,
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
export { checkSiblingEnsemble } from './ensembles/children.js';
export { parseDispatch } from './ensembles/dispatch.js';
export type { DispatchSpec } from './ensembles/dispatch.js';
export { WorkflowThread, WORKFLOW_SCHEMA_VERSION } from './ensembles/workflowThread.js';
export type { WorkflowState } from './ensembles/workflowThread.js';
export { checkYamlLimits } from './yamlErrors.js';
export type { YamlLimits, YamlLimitProblem } from './yamlErrors.js';
