/**
 * Ensembles: declarative multi-turn agent conversations in YAML.
 * @module
 */
export { runEnsemble } from './run.js';
export type { RunEnsembleOptions } from './run.js';
export {
  loadEnsemble,
  parseEnsemble,
  resolveEnsemblePath,
  listEnsembleFiles,
  EnsembleValidationError,
} from './load.js';
export type { LoadEnsembleOptions } from './load.js';
export { validateEnsembleText, formatEnsembleIssue } from './validate.js';
export type { EnsembleIssue, EnsembleValidation, ValidateEnsembleOptions } from './validate.js';
export {
  ensembleFileSchema,
  agentSchema,
  dependencySchema,
  conversationSchema,
  conversationLimitsSchema,
  normalizeEnsemble,
  AGENT_NAME_PATTERN,
} from './schema.js';
export type {
  Ensemble,
  EnsembleAgent,
  EnsembleDependency,
  EnsembleFile,
  ConversationLimits,
} from './schema.js';
export {
  compileCondition,
  checkCondition,
  ConditionError,
  CONDITION_LIMITS,
} from './conditions.js';
export type { CompiledCondition, ConditionContext, ConditionProblem } from './conditions.js';
export {
  planStep,
  markStarted,
  createBook,
  conditionContext,
  SchedulingError,
} from './scheduler.js';
export type { SchedulerBook, StepPlan } from './scheduler.js';
export {
  createConversationState,
  recordTurn,
  latestOutputs,
  totalUsage,
  emptyUsage,
  addUsage,
} from './state.js';
export type {
  ConversationState,
  ConversationTurn,
  EnsembleUsage,
  AnsweredRequest,
} from './state.js';
export { buildResult, COMPLETION_REASONS } from './result.js';
export type { CompletionReason, ConversationResult, EnsembleRunFailure } from './result.js';
export { runScriptAgent, resolveCommand, splitCommand, AgentRunError } from './scriptAgent.js';
export type {
  ScriptAgentOptions,
  ScriptAgentReply,
  ScriptAgentRequest,
  ScriptAgentRun,
} from './scriptAgent.js';
export { runLlmAgent, llmPrompt, parseLlmOutput } from './llmAgent.js';
export type { LlmAgentOptions, LlmAgentRun } from './llmAgent.js';
export {
  TtyInputHandler,
  ScriptedInputHandler,
  LlmInputHandler,
  answersFileSchema,
} from './inputHandlers.js';
export type {
  InputHandler,
  InputRequest,
  ScriptedAnswers,
  TtyInputHandlerOptions,
  LlmInputHandlerOptions,
} from './inputHandlers.js';
export { AgentModels, defaultCreateModel } from './agentModels.js';
export type { AgentModel, CreateModel } from './agentModels.js';
export { agentInput, executeAgent } from './execute.js';
export type { AgentInput, AgentOutcome, ExecuteAgentOptions } from './execute.js';
export type { EnsembleEvent } from './events.js';
