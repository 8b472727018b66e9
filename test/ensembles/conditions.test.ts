import { describe, expect, it } from 'vitest';
import {
  checkCondition,
  compileCondition,
  ConditionError,
} from '../../src/ensembles/conditions.js';

const context = {
  state: { review: { satisfied: false, score: 3 } },
  turn: 4,
  outputs: { a: { n: 1 } },
  executions: { a: 2 },
};

describe('conditions (CEL)', () => {
  it('evaluates to true', () => {
    expect(
      compileCondition('!state.review.satisfied && turn == 4 && executions.a + 1 == 3')(context),
    ).toBe(true);
  });

  it('evaluates to false', () => {
    expect(compileCondition('state.review.score > 5 || outputs.a.n != 1')(context)).toBe(false);
  });

  it('a failing evaluation throws ConditionError with the expression and a fix', () => {
    expect(() => compileCondition('state.missing.flag')(context)).toThrow(ConditionError);
    expect(() => compileCondition('state.missing.flag')(context)).toThrow(
      /state\.missing\.flag.*has\(\)/s,
    );
  });

  it('a non-boolean result is an error', () => {
    expect(() => compileCondition('state.review')(context)).toThrow(/not a boolean/);
  });

  it('syntax errors carry their position', () => {
    expect(checkCondition('turn >')).toMatchObject({
      offset: 6,
      message: expect.stringContaining('CEL syntax error'),
    });
  });

  it('cannot reach anything but state, turn, outputs and executions', () => {
    expect(checkCondition('process.env.HOME == ""')?.message).toMatch(/Unknown variable: process/);
    expect(() => compileCondition('state.constructor == null')(context)).toThrow(ConditionError);
  });

  it('refuses nested comprehensions and matches(), which could run for unbounded time', () => {
    expect(checkCondition('state.l.all(x, state.l.exists(y, y == x))')?.message).toMatch(
      /nested comprehensions/,
    );
    expect(checkCondition("'aaa'.matches('(a+)+b')")?.message).toMatch(
      /matches\(\) is not allowed/,
    );
  });

  it('caps the size of the context', () => {
    const big = {
      state: { list: Array.from({ length: 30_000 }, (_, i) => i) },
      turn: 0,
      outputs: {},
      executions: {},
    };
    expect(() => compileCondition('size(state.list) > 0')(big)).toThrow(/more than 20000 values/);
  });

  it('caps the expression length', () => {
    expect(checkCondition(`turn == 1 ${'|| turn == 1 '.repeat(200)}`)?.message).toMatch(
      /limit is 2000/,
    );
  });
});
