/**
 * Eval results routes, read from one folder (default `defaultResultsDir()`, `.colloquy/evals/`):
 * `GET /evals` lists the runs newest first (dataset, target, start, mean, passed/failed cases),
 * `GET /evals/:runId` returns one run's results, each case with the chat its traces are under.
 * Nothing outside the folder is read: a run id must match {@link EVAL_RUN_ID}.
 * @module
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { defaultResultsDir, readResults, type EvalResults } from '../../evals/results.js';
import { HttpError, notFound } from '../errors.js';

/** What a run id may look like: letters, digits, `_` and `-` (no dots, no slashes). */
export const EVAL_RUN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** One run in `GET /evals`. */
export interface EvalRunSummary {
  runId: string;
  dataset: string;
  target: string;
  startedAt: string;
  mean: number;
  passed: boolean;
  cases: number;
  passedCases: number;
  failedCases: number;
}

function summary(results: EvalResults): EvalRunSummary {
  const passedCases = results.cases.filter((item) => item.passed).length;
  return {
    runId: results.runId,
    dataset: results.dataset,
    target: results.target,
    startedAt: results.startedAt,
    mean: results.mean,
    passed: results.passed,
    cases: results.cases.length,
    passedCases,
    failedCases: results.cases.length - passedCases,
  };
}

async function runIds(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => EVAL_RUN_ID.test(id));
}

/**
 * The eval routes over the results in `dir`.
 *
 * @example
 * ```ts
 * app.route('/', evalRoutes('/srv/app/.colloquy/evals'));
 * ```
 */
export function evalRoutes(dir: string = defaultResultsDir()): Hono {
  const app = new Hono();
  const folder = path.resolve(dir);

  app.get('/evals', async (c) => {
    const runs: EvalRunSummary[] = [];
    const unreadable: Array<{ runId: string; error: string }> = [];
    for (const id of await runIds(folder)) {
      try {
        runs.push(summary(await readResults(path.join(folder, `${id}.json`), folder)));
      } catch (error) {
        // A half-written or older file is listed as unreadable, not hidden and not fatal.
        unreadable.push({ runId: id, error: (error as Error).message.replace(folder, 'evals') });
      }
    }
    runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    return c.json({ runs, unreadable });
  });

  app.get('/evals/:runId', async (c) => {
    const runId = c.req.param('runId');
    if (!EVAL_RUN_ID.test(runId))
      throw new HttpError(
        400,
        'INVALID_BODY',
        `Invalid eval run id "${runId.slice(0, 80)}": use letters, digits, "_" and "-" only, as printed by colloquy eval run (list them with GET /evals).`,
        'runId',
      );
    const known = await runIds(folder);
    if (!known.includes(runId))
      throw notFound(
        'RUN_NOT_FOUND',
        `Eval run "${runId}"`,
        known.slice(-20),
        'List the eval runs with GET /evals; colloquy eval run writes them.',
      );
    const results = await readResults(path.join(folder, `${runId}.json`), folder);
    return c.json({ results });
  });
  return app;
}
