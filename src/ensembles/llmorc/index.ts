/**
 * llm-orc compatibility: project layout, profiles, script protocol, prompts, results and
 * artifacts, plus script resolution and the bundled primitives.
 * @module
 */
export { deriveAgentProfiles } from './agentProfiles.js';
export type { AgentProfiles } from './agentProfiles.js';
export { checkDocumentedOutputs } from './documented.js';
export type { DocumentedCheck } from './documented.js';
export {
  findEnsembleInTree,
  findLlmOrcDir,
  isInLlmOrcProject,
  listEnsembleEntries,
  llmOrcDirOf,
  llmOrcEnsembleDirs,
  llmOrcGlobalDir,
  LLM_ORC_DIR,
} from './project.js';
export type { EnsembleEntry } from './project.js';
export { loadLlmOrcProfileSources } from './profiles.js';
export type { LlmOrcProfileOptions } from './profiles.js';
export { llmOrcFanOutPrompt, llmOrcPrompt, llmOrcPromptFromContext } from './prompt.js';
export type { LlmOrcPromptOptions, PromptDependency } from './prompt.js';
export { executionMarkdown, llmOrcView, writeArtifacts } from './results.js';
export type { LlmOrcAgentResult, LlmOrcView, LlmOrcViewOptions } from './results.js';
export {
  dependencyResults,
  llmOrcFanOutScriptInput,
  llmOrcInputFromColloquy,
  llmOrcScriptInput,
  parseLlmOrcOutput,
  responseText,
  scriptProtocolOf,
} from './scriptProtocol.js';
export type {
  LlmOrcDependencyResult,
  LlmOrcScriptInput,
  LlmOrcScriptInputOptions,
  LlmOrcScriptOutput,
} from './scriptProtocol.js';
export type { LlmOrcAgentSettings } from './agentKeys.js';
export { resolveScript, checkScriptExists, ScriptNotFoundError } from '../scriptResolve.js';
export type { ResolvedScript, ResolveScriptOptions, ScriptProtocol } from '../scriptResolve.js';
export { PRIMITIVES } from '../primitives/index.js';
export type { Primitive, PrimitiveRequest } from '../primitives/types.js';
