/**
 * `compare(a, b)`: what changed between two eval runs, per case and per scorer.
 * @module
 */
import type { EvalResults } from './results.js';

/** One scorer of one case in both runs (a side is absent when the scorer ran in one only). */
export interface ScorerDifference {
  scorer: string;
  a?: number;
  b?: number;
  /** `b - a`, when both ran. */
  delta?: number;
  reasonA?: string;
  reasonB?: string;
}

/** One case in both runs. */
export interface CaseDifference {
  id: string;
  /** `both`, or the one run that has the case. */
  in: 'both' | 'a' | 'b';
  a?: number;
  b?: number;
  delta?: number;
  scorers: ScorerDifference[];
}

/** What {@link compare} returns. */
export interface EvalComparison {
  a: { runId: string; mean: number; target: string };
  b: { runId: string; mean: number; target: string };
  /** `b.mean - a.mean`. */
  delta: number;
  cases: CaseDifference[];
  /** Per scorer name, over every case using it. */
  scorers: ScorerDifference[];
  /** Case ids whose mean went up / down by more than `epsilon`. */
  improved: string[];
  regressed: string[];
}

function diff(a: number | undefined, b: number | undefined): { delta?: number } {
  return a === undefined || b === undefined ? {} : { delta: b - a };
}

/**
 * Compares two runs (`b` against the baseline `a`). Changes smaller than `epsilon` (default
 * 1e-9) count as unchanged.
 */
export function compare(a: EvalResults, b: EvalResults, epsilon = 1e-9): EvalComparison {
  const ids = [...new Set([...a.cases.map((c) => c.id), ...b.cases.map((c) => c.id)])];
  const cases: CaseDifference[] = ids.map((id) => {
    const left = a.cases.find((c) => c.id === id);
    const right = b.cases.find((c) => c.id === id);
    const names = [
      ...new Set([...(left?.scores ?? []), ...(right?.scores ?? [])].map((s) => s.scorer)),
    ];
    const scorers = names.map((scorer): ScorerDifference => {
      const x = left?.scores.find((s) => s.scorer === scorer);
      const y = right?.scores.find((s) => s.scorer === scorer);
      return {
        scorer,
        ...(x ? { a: x.mean, reasonA: x.reason } : {}),
        ...(y ? { b: y.mean, reasonB: y.reason } : {}),
        ...diff(x?.mean, y?.mean),
      };
    });
    return {
      id,
      in: left && right ? 'both' : left ? 'a' : 'b',
      ...(left ? { a: left.mean } : {}),
      ...(right ? { b: right.mean } : {}),
      ...diff(left?.mean, right?.mean),
      scorers,
    };
  });
  const scorerNames = [...new Set([...Object.keys(a.scorers), ...Object.keys(b.scorers)])];
  return {
    a: { runId: a.runId, mean: a.mean, target: a.target },
    b: { runId: b.runId, mean: b.mean, target: b.target },
    delta: b.mean - a.mean,
    cases,
    scorers: scorerNames.map((scorer) => ({
      scorer,
      ...(a.scorers[scorer] ? { a: a.scorers[scorer].mean } : {}),
      ...(b.scorers[scorer] ? { b: b.scorers[scorer].mean } : {}),
      ...diff(a.scorers[scorer]?.mean, b.scorers[scorer]?.mean),
    })),
    improved: cases.filter((c) => (c.delta ?? 0) > epsilon).map((c) => c.id),
    regressed: cases.filter((c) => (c.delta ?? 0) < -epsilon).map((c) => c.id),
  };
}
