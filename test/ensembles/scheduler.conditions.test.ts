import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import {
  conditionContext,
  createBook,
  markStarted,
  planStep,
} from '../../src/ensembles/scheduler.js';
import type { SchedulerBook } from '../../src/ensembles/scheduler.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';
import type { ConversationState } from '../../src/ensembles/state.js';

const ensemble = (agents: string): Ensemble => parseEnsemble(`name: s\nagents:\n${agents}\n`);

/** One step in which `outputs` ran (a name mapped to null failed). */
function step(
  e: Ensemble,
  state: ConversationState,
  book: SchedulerBook,
  outputs: Record<string, Record<string, unknown> | null>,
): void {
  const before = { ...state, agent_execution_count: { ...state.agent_execution_count } };
  for (const name of Object.keys(outputs)) markStarted(e, name, before, book);
  for (const [name, output] of Object.entries(outputs))
    recordTurn(state, {
      agent_name: name,
      input_data: { input: '', context: {} },
      output_data: output ?? {},
      execution_time: 0,
      timestamp: 't',
      ...(output === null ? { status: 'failed' as const, error: `${name} broke` } : {}),
    });
}

describe('conditions in scheduling', () => {
  it('see state, turn, outputs, executions and failures of the committed state', () => {
    const state = createConversationState({ seed: 'x' });
    step(ensemble('  - { name: a, script: x }\n  - { name: b, script: x }'), state, createBook(), {
      a: { score: 7 },
      b: null,
    });
    expect(conditionContext(state)).toEqual({
      state: { seed: 'x', a: { score: 7 } },
      turn: 2,
      outputs: { a: { score: 7 } },
      executions: { a: 1, b: 1 },
      failures: { b: 'b broke' },
    });
  });

  it('a condition on executions stops a review loop after the writer ran twice', () => {
    const e = ensemble(
      "  - { name: w, script: x, depends_on: [{ agent_name: r, condition: 'executions.w < 2', max_executions: 5 }], conversation: { max_turns: 5, triggers_conversation: true } }\n" +
        '  - { name: r, script: x, depends_on: [{ agent_name: w, max_executions: 5 }], conversation: { max_turns: 5 } }',
    );
    const state = createConversationState();
    const book = createBook();
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { ready } = planStep(e, state, book);
      if (!ready.length) break;
      order.push(...ready);
      step(e, state, book, Object.fromEntries(ready.map((name) => [name, { i }])));
    }
    expect(order).toEqual(['w', 'r', 'w', 'r']);
  });

  it('a condition on failures sends a failed dependency to a fixer only', () => {
    const e = ensemble(
      '  - { name: a, script: x }\n' +
        "  - { name: fix, script: x, depends_on: [{ agent_name: a, condition: 'has(failures.a)' }] }\n" +
        "  - { name: use, script: x, depends_on: [{ agent_name: a, condition: '!has(failures.a)' }] }",
    );
    const failed = createConversationState();
    step(e, failed, createBook(), { a: null });
    expect(planStep(e, failed, createBook()).ready).toEqual(['fix']);
    const fine = createConversationState();
    step(e, fine, createBook(), { a: { ok: true } });
    expect(planStep(e, fine, createBook()).ready).toEqual(['use']);
  });

  it('requires_all dependencies all need new output; with any-of ones, one of those too', () => {
    const e = ensemble(
      '  - { name: a, script: x, conversation: { max_turns: 3 } }\n  - { name: b, script: x, conversation: { max_turns: 3 } }\n' +
        '  - { name: c, script: x, conversation: { max_turns: 3 } }\n' +
        '  - { name: d, script: x, depends_on: [a, { agent_name: b, requires_all: false }, { agent_name: c, requires_all: false }] }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { b: {} });
    expect(planStep(e, state, book).ready).not.toContain('d');
    step(e, state, book, { a: {} });
    expect(planStep(e, state, book).ready).toContain('d');
    const onlyA = createConversationState();
    step(e, onlyA, createBook(), { a: {} });
    expect(planStep(e, onlyA, createBook()).ready).not.toContain('d');
  });

  it('the turn variable gates on the run`s length', () => {
    const e = ensemble(
      '  - { name: a, script: x, conversation: { max_turns: 9 } }\n' +
        "  - { name: late, script: x, depends_on: [{ agent_name: a, condition: 'turn >= 3', max_executions: 9 }], conversation: { max_turns: 9 } }",
    );
    const state = createConversationState();
    const book = createBook();
    const plans: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const { ready } = planStep(e, state, book);
      plans.push(ready);
      step(e, state, book, Object.fromEntries(ready.map((name) => [name, {}])));
    }
    // Planned after 3 turns (turn is the committed turn count), not before.
    expect(plans).toEqual([['a'], ['a'], ['a'], ['a', 'late']]);
  });
});
