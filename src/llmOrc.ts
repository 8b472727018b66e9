/**
 * `colloquy/llm-orc`: compatibility with llm-orc projects: finding `.llm-orc` folders and their
 * ensembles, llm-orc profiles and agent settings, the script protocol, prompts, results and
 * artifacts, script resolution, the built-in primitives and the mock model.
 * @module
 */
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
export { createMockModel } from './models/llmOrcProviders.js';
