/**
 * Eval results: the JSON file a run writes (a score and a reason per case and scorer, for every
 * repeat, with the spread), where it goes by default (`.colloquy/evals/` beside the default
 * database) and how it is read back.
 *
 * Changelog: version 1 — first format; each repeat may since carry its `chatId` (optional, so
 * older files still read).
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, SerializationError } from '../errors.js';
import { defaultStorePath } from '../paths.js';

/** The results format name. */
export const RESULTS_FORMAT = 'colloquy-eval-results';
/** The results version this release writes. */
export const RESULTS_VERSION = 1;

const scoreSchema = z.object({ scorer: z.string(), score: z.number(), reason: z.string() });

const spreadSchema = z.object({
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  /** Population standard deviation over the repeats. */
  stdev: z.number(),
});

const attemptSchema = z.object({
  output: z.string(),
  scores: z.array(scoreSchema),
  latencyMs: z.number(),
  modelCalls: z.number(),
  cost: z.number().optional(),
  error: z.string().optional(),
  /** The chat the repeat ran in (its traces are that chat's), when the target kept them. */
  chatId: z.string().optional(),
});

const caseResultSchema = z.object({
  id: z.string(),
  input: z.union([z.string(), z.array(z.string())]),
  expected: z.string().optional(),
  tags: z.array(z.string()).optional(),
  /** `replay` when the case ran on its cassette, `live` otherwise. */
  mode: z.enum(['replay', 'live']),
  /** Per scorer: the spread over repeats, the reason of the lowest-scoring repeat, its threshold. */
  scores: z.array(
    spreadSchema.extend({
      scorer: z.string(),
      reason: z.string(),
      threshold: z.number().optional(),
      passed: z.boolean(),
    }),
  ),
  mean: z.number(),
  passed: z.boolean(),
  runs: z.array(attemptSchema),
});

/** The schema of a results file. */
export const evalResultsSchema = z.object({
  format: z.literal(RESULTS_FORMAT),
  version: z.literal(RESULTS_VERSION),
  runId: z.string(),
  dataset: z.string(),
  target: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  repeat: z.number().int().min(1),
  live: z.boolean(),
  threshold: z.number().optional(),
  /** The mean over every case and scorer (each case's scorers weigh equally within it). */
  mean: z.number(),
  /** Over the run's case means: the spread across cases. */
  cases: z.array(caseResultSchema),
  /** Per scorer name, over every case using it. */
  scorers: z.record(z.string(), spreadSchema.extend({ count: z.number().int() })),
  /** Every threshold that was not met, as `case/scorer` or `mean`. */
  failures: z.array(z.string()),
  passed: z.boolean(),
});

/** A results file. */
export type EvalResults = z.output<typeof evalResultsSchema>;
/** One case of a results file. */
export type CaseResult = EvalResults['cases'][number];
/** One scorer of one case, over the repeats. */
export type CaseScore = CaseResult['scores'][number];
/** One repeat of a case. */
export type CaseAttempt = CaseResult['runs'][number];

/** Mean, min, max and standard deviation of numbers (zeros for none). */
export function spread(values: readonly number[]): {
  mean: number;
  min: number;
  max: number;
  stdev: number;
} {
  if (values.length === 0) return { mean: 0, min: 0, max: 0, stdev: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { mean, min: Math.min(...values), max: Math.max(...values), stdev: Math.sqrt(variance) };
}

/** Where results go by default: `evals/` beside the default database (`.colloquy/evals/`). */
export function defaultResultsDir(env: NodeJS.ProcessEnv = process.env): string {
  const db = defaultStorePath(env);
  const base = db === ':memory:' ? path.resolve('.colloquy', 'colloquy.db') : path.resolve(db);
  return path.join(path.dirname(base), 'evals');
}

/** Writes results as JSON, atomically. */
export async function writeResults(file: string, results: EvalResults): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(results, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}

/**
 * Reads results: a file path, or a run id looked up in `dir` (default {@link defaultResultsDir}).
 */
export async function readResults(
  fileOrRunId: string,
  dir = defaultResultsDir(),
): Promise<EvalResults> {
  const byId = path.join(dir, `${fileOrRunId}.json`);
  const file = existsSync(fileOrRunId) ? fileOrRunId : existsSync(byId) ? byId : undefined;
  if (!file)
    throw new ConfigError(
      `"${fileOrRunId}" is neither a results file nor a run id in ${dir}. Pass a file written by colloquy eval run --out, or a run id it printed.`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw new SerializationError(
      `Could not read eval results ${file}: ${(error as Error).message}.`,
      {
        cause: error,
      },
    );
  }
  const parsed = evalResultsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SerializationError(
      `${file} is not a ${RESULTS_FORMAT} version ${RESULTS_VERSION} file: ${issue.path.join('.') || '(top level)'}: ${issue.message}. Run the eval again to write one.`,
    );
  }
  return parsed.data;
}
