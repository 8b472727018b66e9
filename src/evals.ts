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
} from './evals/dataset.js';
export { captureCase, outputSignature } from './evals/capture.js';
export type { CaptureOptions, CaptureResult } from './evals/capture.js';
export { compare } from './evals/compare.js';
export type { CaseDifference, EvalComparison, ScorerDifference } from './evals/compare.js';
export { renderComparison, renderResults } from './evals/report.js';
export {
  defaultResultsDir,
  evalResultsSchema,
  readResults,
  RESULTS_FORMAT,
  RESULTS_VERSION,
  spread,
  writeResults,
} from './evals/results.js';
export type { CaseAttempt, CaseResult, CaseScore, EvalResults } from './evals/results.js';
export { runEval } from './evals/run.js';
export type { EvalProgress, RunEvalOptions } from './evals/run.js';
export { agencyTarget, ensembleTarget } from './evals/targets.js';
export type {
  AgencyFactory,
  AgencyFactoryOptions,
  EnsembleTargetOptions,
  EvalTarget,
  TargetRunOptions,
} from './evals/targets.js';
export { agencyTranscript, ensembleTranscript } from './evals/transcript.js';
export {
  delegatedTo,
  matchesPartial,
  maxCost,
  maxDepth,
  maxLatency,
  maxTurns,
  toolCalled,
} from './evals/scorers/behavior.js';
export type { DelegatedOptions, ToolCalledOptions } from './evals/scorers/behavior.js';
export {
  JUDGE_INSTRUCTIONS,
  judgePrompt,
  llmJudge,
  parseJudgeReply,
} from './evals/scorers/judge.js';
export type { LlmJudgeOptions } from './evals/scorers/judge.js';
export { BUILTIN_SCORERS, resolveScorers } from './evals/scorers/registry.js';
export type { ScorerEnvironment } from './evals/scorers/registry.js';
export { cosineSimilarity, similarity } from './evals/scorers/similarity.js';
export type { Embedder, SimilarityOptions } from './evals/scorers/similarity.js';
export { contains, exactMatch, jsonSchema, regex } from './evals/scorers/text.js';
export type {
  ContainsOptions,
  ExactMatchOptions,
  JsonSchemaOptions,
  RegexOptions,
} from './evals/scorers/text.js';
export { checkScore } from './evals/types.js';
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
} from './evals/types.js';
