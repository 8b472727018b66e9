/**
 * Eval results and comparisons as plain-text tables for the terminal.
 * @module
 */
import type { EvalComparison } from './compare.js';
import type { EvalResults } from './results.js';

function pad(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

function num(value: number | undefined): string {
  return value === undefined ? '–' : value.toFixed(2);
}

function signed(value: number | undefined): string {
  if (value === undefined) return '–';
  if (Math.abs(value) < 1e-9) return '0';
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** One score cell: the mean, with `±stdev` when repeats disagreed and `!` below its threshold. */
function cell(score: { mean: number; stdev: number; passed: boolean } | undefined): string {
  if (!score) return '';
  const spread = score.stdev > 0 ? `±${score.stdev.toFixed(2)}` : '';
  return `${score.mean.toFixed(2)}${spread}${score.passed ? '' : '!'}`;
}

/** The results table: a row per case, a column per scorer, then the summary lines. */
export function renderResults(results: EvalResults): string[] {
  const scorers = Object.keys(results.scorers);
  const rows = [['case', 'mode', ...scorers, 'mean']];
  for (const item of results.cases) {
    rows.push([
      item.id,
      item.mode,
      ...scorers.map((name) => cell(item.scores.find((s) => s.scorer === name))),
      item.mean.toFixed(2),
    ]);
  }
  const lines = pad(rows);
  const failing = results.cases.flatMap((item) =>
    item.scores
      .filter((s) => s.mean < 1)
      .map(
        (s) =>
          `  ${item.id} / ${s.scorer}: ${s.reason}${s.threshold === undefined ? '' : ` (threshold ${s.threshold})`}`,
      ),
  );
  if (failing.length > 0) lines.push('', 'Below 1:', ...failing);
  lines.push(
    '',
    `mean ${results.mean.toFixed(3)}${results.threshold === undefined ? '' : ` (threshold ${results.threshold})`}` +
      `  ${results.cases.length} cases × ${results.repeat}  ${results.passed ? 'PASSED' : `FAILED: ${results.failures.join(', ')}`}`,
  );
  const spreads = Object.entries(results.scorers)
    .filter(([, s]) => s.count > 0)
    .map(
      ([name, s]) =>
        `${name} ${s.mean.toFixed(2)} (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`,
    );
  if (spreads.length > 0) lines.push(`scorers: ${spreads.join('; ')}`);
  return lines;
}

/** The comparison table: a row per case and scorer that ran in either run. */
export function renderComparison(comparison: EvalComparison): string[] {
  const rows = [['case', 'scorer', 'a', 'b', 'change']];
  for (const item of comparison.cases) {
    rows.push([
      item.id,
      '(mean)',
      num(item.a),
      num(item.b),
      item.in === 'both' ? signed(item.delta) : `only in ${item.in}`,
    ]);
    for (const score of item.scorers)
      rows.push(['', score.scorer, num(score.a), num(score.b), signed(score.delta)]);
  }
  const lines = [
    `a ${comparison.a.runId} (${comparison.a.target})  mean ${comparison.a.mean.toFixed(3)}`,
    `b ${comparison.b.runId} (${comparison.b.target})  mean ${comparison.b.mean.toFixed(3)}  change ${signed(comparison.delta)}`,
    '',
    ...pad(rows),
    '',
    `scorers: ${comparison.scorers.map((s) => `${s.scorer} ${num(s.a)} → ${num(s.b)} (${signed(s.delta)})`).join('; ')}`,
  ];
  if (comparison.regressed.length > 0) lines.push(`regressed: ${comparison.regressed.join(', ')}`);
  if (comparison.improved.length > 0) lines.push(`improved: ${comparison.improved.join(', ')}`);
  return lines;
}
