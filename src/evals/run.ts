/**
 * `runEval`: runs every case of a dataset against a target (on its cassette when it has one,
 * live otherwise or with `live: true`), `repeat` times each, `concurrency` at once, scores each
 * run, and returns (and writes) the results with the spread over repeats and the thresholds met.
 * @module
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Model } from '@openai/agents-core';
import pLimit from 'p-limit';
import { ConfigError } from '../errors.js';
import { Cassette } from '../models/cassette.js';
import { loadDataset } from './dataset.js';
import { defaultResultsDir, spread, writeResults } from './results.js';
import type { CaseAttempt, CaseResult, EvalResults } from './results.js';
import { resolveScorers, type ScorerEnvironment } from './scorers/registry.js';
import type { EvalTarget } from './targets.js';
import { mismatchSummary, WatchedReplay } from './watchedReplay.js';
import { checkScore, type EvalCase, type EvalDataset, type NamedScorer } from './types.js';

/** Told after each run of a case. */
export interface EvalProgress {
  caseId: string;
  /** 1-based repeat number. */
  repeat: number;
  done: number;
  total: number;
  attempt: CaseAttempt;
}

/** Options of {@link runEval}. */
export interface RunEvalOptions extends ScorerEnvironment {
  /** A dataset, or the path of one. */
  dataset: EvalDataset | string;
  target: EvalTarget;
  /** Runs of each case (default 1); scores are reported with their spread. */
  repeat?: number;
  /** Runs at once (default 4). */
  concurrency?: number;
  /** The lowest mean score of the whole run (0..1). */
  threshold?: number;
  /** Ignore cassettes: run every case on live models. */
  live?: boolean;
  /**
   * The model of every agent in cases run live (e.g. a profile's, made once per run of a case);
   * default: the agents' own models.
   */
  model?: () => Model;
  /** Also write the results to this file. */
  out?: string;
  /** Where results are kept by run id (default `.colloquy/evals/`; false: not kept). */
  resultsDir?: string | false;
  /** Only cases with every one of these tags. */
  tags?: string[];
  onProgress?: (progress: EvalProgress) => void;
  signal?: AbortSignal;
}

interface PreparedCase {
  item: EvalCase;
  turns: string[];
  scorers: NamedScorer[];
  cassette: Cassette | undefined;
}

const COMPLETED: NamedScorer = {
  name: 'completed',
  score: () => ({ score: 1, reason: 'the case ran to the end' }),
};

function checkWhole(value: number | undefined, what: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1))
    throw new ConfigError(`${what} must be a whole number ≥ 1 (got ${value}).`);
}

function checkFraction(value: number | undefined, what: string): void {
  if (value !== undefined && !(value >= 0 && value <= 1))
    throw new ConfigError(`${what} must be from 0 to 1 (got ${value}).`);
}

function loadCassette(dataset: EvalDataset, item: EvalCase): Cassette {
  const file = path.resolve(path.dirname(dataset.file), item.cassette!);
  try {
    return Cassette.load(file);
  } catch (error) {
    throw new ConfigError(
      `${dataset.file}: case "${item.id}": cassette ${item.cassette}: ${(error as Error).message} Capture the case again, or run with --live.`,
      { cause: error },
    );
  }
}

function failureReason(error: unknown, mismatch: Error | undefined): string {
  if (mismatch)
    return (
      `replay missed the cassette: a model request differs from every recording (an agent's instructions, tools or input changed). ` +
      `Changed lines against the closest recording:\n${mismatchSummary(mismatch)}\n` +
      'Capture the case again to accept the change, or run it with --live.'
    );
  const code = (error as { code?: string }).code;
  const message = (error as Error)?.message ?? String(error);
  return `the case failed${code ? ` [${code}]` : ''}: ${message.split('\n')[0]}`;
}

function failedAttempt(
  scorers: NamedScorer[],
  error: unknown,
  mismatch: Error | undefined,
): CaseAttempt {
  const reason = failureReason(error, mismatch);
  return {
    output: '',
    scores: scorers.map((scorer) => ({ scorer: scorer.name, score: 0, reason })),
    latencyMs: 0,
    modelCalls: 0,
    error: (mismatch ?? (error as Error))?.message ?? String(error),
  };
}

async function attempt(
  prepared: PreparedCase,
  options: RunEvalOptions,
  useCassette: boolean,
): Promise<CaseAttempt> {
  const { item, turns, scorers } = prepared;
  const replay =
    useCassette && prepared.cassette ? new WatchedReplay(prepared.cassette) : undefined;
  const model = replay ?? options.model?.();
  let transcript;
  try {
    transcript = await options.target.run(turns, {
      ...(model ? { model } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return failedAttempt(scorers, error, replay?.firstMismatch);
  }
  // A nested agent's miss may have been turned into a tool output the run went on with.
  if (replay?.firstMismatch)
    return failedAttempt(scorers, replay.firstMismatch, replay.firstMismatch);
  const scores = [];
  for (const scorer of scorers) {
    try {
      const value = await scorer.score({
        case: item,
        transcript,
        ...(item.expected === undefined ? {} : { expected: item.expected }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      scores.push({ scorer: scorer.name, ...checkScore(scorer.name, value) });
    } catch (error) {
      scores.push({
        scorer: scorer.name,
        score: 0,
        reason: `the scorer failed: ${(error as Error)?.message ?? String(error)}`,
      });
    }
  }
  return {
    output: transcript.output,
    scores,
    latencyMs: Math.round(transcript.latencyMs),
    modelCalls: transcript.modelCalls,
    ...(transcript.cost === undefined ? {} : { cost: transcript.cost }),
    ...(transcript.chatId === undefined ? {} : { chatId: transcript.chatId }),
  };
}

function summarize(prepared: PreparedCase, runs: CaseAttempt[], live: boolean): CaseResult {
  const { item } = prepared;
  const scores = prepared.scorers.map((scorer) => {
    const own = runs.map((run) => run.scores.find((s) => s.scorer === scorer.name));
    const stats = spread(own.map((score) => score?.score ?? 0));
    const threshold = item.thresholds?.[scorer.name];
    // The reason of the lowest-scoring repeat: what to fix when repeats disagree.
    const worst = own.reduce((a, b) => ((b?.score ?? 0) < (a?.score ?? 0) ? b : a), own[0]);
    return {
      scorer: scorer.name,
      ...stats,
      reason: worst?.reason ?? '',
      ...(threshold === undefined ? {} : { threshold }),
      passed: threshold === undefined || stats.mean >= threshold,
    };
  });
  return {
    id: item.id,
    input: item.input,
    ...(item.expected === undefined ? {} : { expected: item.expected }),
    ...(item.tags ? { tags: item.tags } : {}),
    mode: prepared.cassette && !live ? 'replay' : 'live',
    scores,
    mean: spread(scores.map((s) => s.mean)).mean,
    passed: scores.every((s) => s.passed) && runs.every((run) => run.error === undefined),
    runs,
  };
}

/**
 * Runs a dataset against a target and scores it.
 *
 * @example
 * ```ts
 * const results = await runEval({ dataset: 'examples/evals/demo.jsonl', target, repeat: 3, threshold: 0.8 });
 * if (!results.passed) process.exitCode = 1;
 * ```
 */
export async function runEval(options: RunEvalOptions): Promise<EvalResults> {
  const repeat = options.repeat ?? 1;
  checkWhole(repeat, 'repeat');
  checkWhole(options.concurrency, 'concurrency');
  checkFraction(options.threshold, 'threshold');
  const dataset =
    typeof options.dataset === 'string' ? await loadDataset(options.dataset) : options.dataset;
  const live = options.live ?? false;
  const selected = dataset.cases.filter((item) =>
    (options.tags ?? []).every((tag) => item.tags?.includes(tag)),
  );
  if (selected.length === 0)
    throw new ConfigError(
      `${dataset.file} has no cases${options.tags?.length ? ` tagged ${options.tags.join(', ')}` : ''} to run.`,
    );
  const prepared: PreparedCase[] = [];
  for (const item of selected) {
    const scorers = await resolveScorers(item, options, dataset.file);
    prepared.push({
      item,
      turns: Array.isArray(item.input) ? item.input : [item.input],
      scorers: scorers.length > 0 ? scorers : [COMPLETED],
      cassette: item.cassette && !live ? loadCassette(dataset, item) : undefined,
    });
  }
  const runId = `eval_${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}_${randomUUID().slice(0, 8)}`;
  const startedAt = new Date();
  const limit = pLimit(options.concurrency ?? 4);
  const total = prepared.length * repeat;
  let done = 0;
  const runs = await Promise.all(
    prepared.map((entry) =>
      Promise.all(
        Array.from({ length: repeat }, (_, index) =>
          limit(async () => {
            const result = await attempt(entry, options, !live);
            done += 1;
            options.onProgress?.({
              caseId: entry.item.id,
              repeat: index + 1,
              done,
              total,
              attempt: result,
            });
            return result;
          }),
        ),
      ),
    ),
  );
  const cases = prepared.map((entry, index) => summarize(entry, runs[index]!, live));
  const byScorer = new Map<string, number[]>();
  for (const result of cases)
    for (const score of result.scores)
      byScorer.set(score.scorer, [...(byScorer.get(score.scorer) ?? []), score.mean]);
  const mean = spread(cases.map((result) => result.mean)).mean;
  // A run that failed (an error, a replay miss) fails the eval whatever the thresholds.
  const failures = cases.flatMap((result) => [
    ...(result.runs.some((run) => run.error !== undefined) ? [`${result.id}/error`] : []),
    ...result.scores
      .filter((score) => !score.passed)
      .map((score) => `${result.id}/${score.scorer}`),
  ]);
  if (options.threshold !== undefined && mean < options.threshold) failures.push('mean');
  const results: EvalResults = {
    format: 'colloquy-eval-results',
    version: 1,
    runId,
    dataset: dataset.file,
    target: options.target.name,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    repeat,
    live,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    mean,
    cases,
    scorers: Object.fromEntries(
      [...byScorer].map(([name, values]) => [name, { ...spread(values), count: values.length }]),
    ),
    failures,
    passed: failures.length === 0,
  };
  const dir = options.resultsDir === undefined ? defaultResultsDir() : options.resultsDir;
  if (dir !== false) await writeResults(path.join(dir, `${runId}.json`), results);
  if (options.out) await writeResults(options.out, results);
  return results;
}
