import { describe, expect, it } from 'vitest';
import { compileCondition, CONDITION_LIMITS } from '../../src/ensembles/conditions.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

const ctx = (state: Record<string, unknown>) => ({ state, turn: 1, outputs: {}, executions: {} });

describe('conditions: outputs with hostile keys are plain data', () => {
  it('keys named constructor and __proto__ are read as map entries', () => {
    const state = JSON.parse(
      '{"a": {"x": 1, "constructor": {"k": 1}, "__proto__": {"k": 2}}, "constructor": {"k": 3}}',
    );
    expect(compileCondition('state.a.x == 1')(ctx(state))).toBe(true);
    expect(compileCondition('state.a.constructor.k == 1')(ctx(state))).toBe(true);
    expect(compileCondition('state.a["__proto__"].k == 2')(ctx(state))).toBe(true);
    expect(compileCondition('state.constructor.k == 3')(ctx(state))).toBe(true);
    expect(compileCondition('has(state.a.toString)')(ctx(state))).toBe(false);
    // Nothing leaked into Object.prototype.
    expect(({} as Record<string, unknown>).k).toBeUndefined();
  });

  it('a non-boolean map result is shown as JSON in the error', () => {
    expect(() => compileCondition('state.a')(ctx({ a: { b: 1 } }))).toThrow(
      /returned \{"b":1\}, not a boolean/,
    );
  });

  it('the failures variable lists agents whose latest run failed', () => {
    const condition = compileCondition('has(failures.fetch) && failures.fetch.contains("timeout")');
    expect(condition({ ...ctx({}), failures: { fetch: 'it timed out: timeout' } })).toBe(true);
    expect(condition(ctx({}))).toBe(false);
  });
});

describe('conditions: evaluation is bounded in time', () => {
  it('refuses a comprehension whose items x longest string exceeds the cost bound, quickly', () => {
    const w = Array.from({ length: 19_000 }, (_, i) => `word${i}`);
    const s = 'x'.repeat(1_000_000);
    const started = performance.now();
    expect(() =>
      compileCondition('state.a.w.exists(x, state.a.s.contains(x))')(ctx({ a: { w, s } })),
    ).toThrow(/iterates over a context of \d+ items with strings of up to 1000000 characters/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('still evaluates comprehensions over moderate contexts', () => {
    const w = Array.from({ length: 500 }, (_, i) => `word${i}`);
    expect(
      compileCondition('state.a.w.exists(x, state.a.s.contains(x))')(
        ctx({ a: { w, s: 'has word42 in it' } }),
      ),
    ).toBe(true);
  });

  it('refuses contexts with more text than the cap', () => {
    const big = 'y'.repeat(CONDITION_LIMITS.maxContextChars + 1);
    expect(() => compileCondition('turn == 1')(ctx({ big }))).toThrow(/characters of text/);
  });

  it('time spent in conditions counts against the run: past its timeout it ends with timeout', async () => {
    const dir = tempDir();
    // Each evaluation takes some 2-50 ms (4,900 items against a 5,000-character string, just
    // under the cost bound, depending on the machine) and is false; 600 agents wait on it, so
    // planning step 2 outlasts the 0.5 s timeout even on a fast machine. The run must say timeout,
    // not completed.
    const source = writeScript(
      dir,
      'source.js',
      `reply({ success: true, data: { w: Array.from({ length: 4900 }, (_, i) => 'w' + i), s: 'z'.repeat(5000) } });`,
    );
    const ok = writeScript(dir, 'ok.js', `reply({ success: true, data: {} });`);
    const waiting = Array.from(
      { length: 600 },
      (_, i) =>
        `  - { name: d${i}, script: ${ok}, depends_on: [{ agent_name: source, condition: 'state.source.w.exists(x, state.source.s.contains(x))' }] }`,
    ).join('\n');
    const started = performance.now();
    const result = await runEnsemble(
      ensembleFrom(
        `name: slow-conditions\nagents:\n  - { name: source, script: ${source} }\n${waiting}\nconversation_limits: { timeout_seconds: 0.5 }\n`,
        dir,
      ),
    );
    expect([result.completion_reason, result.turn_count]).toEqual(['timeout', 1]);
    expect(performance.now() - started).toBeGreaterThan(500);
  });
});
