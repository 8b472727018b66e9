/**
 * Vitest matchers for agency results and eval scores: `toDelegateTo`, `toCallTool` and
 * `toScoreAtLeast`. Install them once (e.g. in a setup file) with {@link installEvalMatchers}.
 *
 * @example
 * ```ts
 * import { installEvalMatchers } from 'colloquy/testing';
 * installEvalMatchers();
 * const result = await agency.getResponse('Write a brief about tides');
 * expect(result).toDelegateTo(['Researcher', 'Writer']);
 * expect(result).toCallTool('send_message', { recipient: 'Editor' });
 * expect(await runEval({ dataset, target })).toScoreAtLeast(0.8);
 * ```
 * @module
 */
import { expect } from 'vitest';
import type { AgencyResponse } from '../agency/result.js';
import type { CaseResult, EvalResults } from '../evals/results.js';
import { delegatedTo, toolCalled } from '../evals/scorers/behavior.js';
import { agencyTranscript } from '../evals/transcript.js';
import type { EvalTranscript, Score } from '../evals/types.js';

/** What `toDelegateTo` and `toCallTool` accept: a response, the responses of a chat, or a transcript. */
export type DelegationSubject = AgencyResponse | readonly AgencyResponse[] | EvalTranscript;

/** What `toScoreAtLeast` accepts: run results, one case's result, a score, or a number. */
export type ScoreSubject = EvalResults | CaseResult | Score | number;

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function transcriptOf(subject: unknown): EvalTranscript {
  if (Array.isArray(subject)) return agencyTranscript(subject as AgencyResponse[], 0);
  const value = subject as Partial<AgencyResponse & EvalTranscript> | null;
  if (value && Array.isArray(value.newItems)) return agencyTranscript([value as AgencyResponse], 0);
  if (value && Array.isArray(value.toolCalls) && Array.isArray(value.delegations))
    return value as EvalTranscript;
  throw new TypeError(
    `Expected an agency response (getResponse's result), a list of them, or an eval transcript; got ${typeof subject}.`,
  );
}

function scoreOf(subject: unknown, scorer: string | undefined): { value: number; what: string } {
  if (typeof subject === 'number') return { value: subject, what: 'the score' };
  const value = subject as Record<string, unknown> | null;
  if (value && typeof value.score === 'number') return { value: value.score, what: 'the score' };
  if (value && Array.isArray(value.cases) && typeof value.scorers === 'object') {
    const results = value as unknown as EvalResults;
    if (scorer === undefined) return { value: results.mean, what: 'the run mean' };
    const found = results.scorers[scorer];
    if (!found)
      throw new TypeError(
        `The run has no scorer "${scorer}" (it has ${Object.keys(results.scorers).join(', ')}).`,
      );
    return { value: found.mean, what: `scorer ${scorer}'s mean` };
  }
  if (value && Array.isArray(value.scores) && typeof value.mean === 'number') {
    const result = value as unknown as CaseResult;
    if (scorer === undefined) return { value: result.mean, what: `case ${result.id}'s mean` };
    const found = result.scores.find((s) => s.scorer === scorer);
    if (!found) throw new TypeError(`Case ${result.id} has no scorer "${scorer}".`);
    return { value: found.mean, what: `case ${result.id}'s ${scorer}` };
  }
  throw new TypeError('Expected eval results, a case result, a { score, reason } or a number.');
}

function fromScore(score: Score, isNot: boolean): MatcherResult {
  return {
    pass: score.score === 1,
    message: () => (isNot ? `expected not to, but ${score.reason}` : score.reason),
  };
}

/** The matchers, for `expect.extend`. */
export const evalMatchers = {
  /** Passes when send_message went along `path` (one agent or several, in order unless `ordered: false`). */
  toDelegateTo(
    this: { isNot?: boolean },
    received: unknown,
    path: string | string[],
    options: { ordered?: boolean; from?: string } = {},
  ): MatcherResult {
    const scorer = delegatedTo({ ...options, path: Array.isArray(path) ? path : [path] });
    const transcript = transcriptOf(received);
    return fromScore(
      scorer({ case: { id: 'expect', input: '' }, transcript }) as Score,
      this.isNot ?? false,
    );
  },

  /** Passes when `tool` was called (with at least these arguments). */
  toCallTool(
    this: { isNot?: boolean },
    received: unknown,
    tool: string,
    args?: Record<string, unknown>,
  ): MatcherResult {
    const scorer = toolCalled({ tool, ...(args ? { args } : {}) });
    const transcript = transcriptOf(received);
    return fromScore(
      scorer({ case: { id: 'expect', input: '' }, transcript }) as Score,
      this.isNot ?? false,
    );
  },

  /** Passes when the score (a run's mean, a scorer's mean, a case's) is at least `min`. */
  toScoreAtLeast(received: unknown, min: number, scorer?: string): MatcherResult {
    const { value, what } = scoreOf(received, scorer);
    return {
      pass: value >= min,
      message: () => `expected ${what} (${value.toFixed(3)}) to be at least ${min}`,
    };
  },
};

/** Adds the eval matchers to Vitest's `expect`. */
export function installEvalMatchers(): void {
  expect.extend(evalMatchers);
}

declare module 'vitest' {
  interface Matchers<T = any> {
    /** send_message went along `path` (in order unless `ordered: false`). */
    toDelegateTo(path: string | string[], options?: { ordered?: boolean; from?: string }): T;
    /** `tool` was called, with at least `args`. */
    toCallTool(tool: string, args?: Record<string, unknown>): T;
    /** The run's (or a scorer's, or a case's) mean score is at least `min`. */
    toScoreAtLeast(min: number, scorer?: string): T;
  }
}
