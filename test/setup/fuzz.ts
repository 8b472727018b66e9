/**
 * Shared settings of the property-based (fast-check) fuzz suites: a bounded number of cases in
 * `npm test`, many more with `FUZZ_RUNS=<n>`; a 2 s budget per case; prototype-pollution and
 * code-execution canaries; and a one-line summary per property (cases, time, failures).
 * @module
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** The per-case time budget: a case that takes longer counts as a hang. */
export const CASE_BUDGET_MS = 2000;

/** Cases to run: `FUZZ_RUNS` when set, else `fallback` (the bounded default of `npm test`). */
export function fuzzRuns(fallback: number): number {
  const env = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(env) && env > 0 ? env : fallback;
}

/** Vitest timeout for a property of `runs` cases at up to `perCaseMs` each (plus slack). */
export function fuzzTimeout(runs: number, perCaseMs = 50): number {
  return Math.max(30_000, runs * perCaseMs + 30_000);
}

/** Names a payload may try to set, to detect code execution: they must stay unset. */
export const CANARY = '__colloquyFuzzCanary';

/** Snippets that would set the canary if anything evaluated them as code. */
export const CODE_PAYLOADS = [
  `globalThis.${CANARY} = 1`,
  `(function(){globalThis.${CANARY}=1})()`,
  `require('child_process').execSync('touch /tmp/${CANARY}')`,
  `process.exit(3)`,
  `\${globalThis.${CANARY}=1}`,
  `{{constructor.constructor('globalThis.${CANARY}=1')()}}`,
  `constructor.constructor("globalThis.${CANARY}=1")()`,
  `__proto__.polluted`,
];

/** Keys that prototype-pollution attempts use. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype', 'polluted'];

/** Throws when Object.prototype was polluted or the canary was set. */
export function expectClean(): void {
  const probe: Record<string, unknown> = {};
  expect(probe.polluted, 'Object.prototype.polluted').toBeUndefined();
  expect(Object.keys(Object.prototype), 'Object.prototype keys').toEqual([]);
  expect((globalThis as Record<string, unknown>)[CANARY], 'code execution canary').toBeUndefined();
}

/** Runs `fn` and fails when it takes longer than {@link CASE_BUDGET_MS}. */
export async function withinBudget<T>(what: string, fn: () => T | Promise<T>): Promise<T> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} hung (over ${CASE_BUDGET_MS} ms)`)),
      CASE_BUDGET_MS,
    );
  });
  try {
    const result = await Promise.race([Promise.resolve().then(fn), hang]);
    const ms = performance.now() - start;
    if (ms > CASE_BUDGET_MS)
      throw new Error(`${what} took ${ms.toFixed(0)} ms (budget ${CASE_BUDGET_MS} ms)`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs an async property for {@link fuzzRuns}(`fallback`) cases and prints
 * `fuzz <name>: <cases> cases, <ms> ms, 0 failures` (a failing property throws fast-check's report).
 */
export async function checkProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  fallback: number,
): Promise<void> {
  const numRuns = fuzzRuns(fallback);
  const start = performance.now();
  await fc.assert(fc.asyncProperty(arbitrary, predicate), { numRuns, endOnFailure: true });
  console.info(
    `fuzz ${name}: ${numRuns} cases, ${(performance.now() - start).toFixed(0)} ms, 0 failures`,
  );
}
