/**
 * `colloquy/evals`: datasets, scorers, `runEval`, `compare` and `captureCase`. See docs/evals.md.
 * @module
 */
export {
  appendCase,
  evalCaseSchema,
  loadDataset,
  parseJsonlDataset,
  parseYamlDataset,
} from './dataset.js';
export { captureCase, outputSignature } from './capture.js';
export type { CaptureOptions, CaptureResult } from './capture.js';
export { compare } from './compare.js';
export type { CaseDifference, EvalComparison, ScorerDifference } from './compare.js';
export { renderComparison, renderResults } from './report.js';
export {
  defaultResultsDir,
  evalResultsSchema,
  readResults,
  RESULTS_FORMAT,
  RESULTS_VERSION,
  spread,
  writeResults,
} from './results.js';
export type { CaseAttempt, CaseResult, CaseScore, EvalResults } from './results.js';
export { runEval } from './run.js';
export type { EvalProgress, RunEvalOptions } from './run.js';
export { agencyTarget, ensembleTarget } from './targets.js';
export type {
  AgencyFactory,
  AgencyFactoryOptions,
  EnsembleTargetOptions,
  EvalTarget,
  TargetRunOptions,
} from './targets.js';
export { agencyTranscript, ensembleTranscript } from './transcript.js';
export {
  delegatedTo,
  matchesPartial,
  maxCost,
  maxDepth,
  maxLatency,
  maxTurns,
  toolCalled,
} from './scorers/behavior.js';
export type { DelegatedOptions, ToolCalledOptions } from './scorers/behavior.js';
export { JUDGE_INSTRUCTIONS, judgePrompt, llmJudge, parseJudgeReply } from './scorers/judge.js';
export type { LlmJudgeOptions } from './scorers/judge.js';
export { BUILTIN_SCORERS, resolveScorers } from './scorers/registry.js';
export type { ScorerEnvironment } from './scorers/registry.js';
export { cosineSimilarity, similarity } from './scorers/similarity.js';
export type { Embedder, SimilarityOptions } from './scorers/similarity.js';
export { contains, exactMatch, jsonSchema, regex } from './scorers/text.js';
export type {
  ContainsOptions,
  ExactMatchOptions,
  JsonSchemaOptions,
  RegexOptions,
} from './scorers/text.js';
export { checkScore } from './types.js';
export type {
  DelegationRecord,
  EvalCase,
  EvalDataset,
  EvalTranscript,
  NamedScorer,
  Score,
  Scorer,
  ScorerContext,
  ScorerSpec,
  ToolCallRecord,
} from './types.js';
