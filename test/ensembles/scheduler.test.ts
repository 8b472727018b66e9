import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import {
  conditionContext,
  createBook,
  markStarted,
  planStep,
  SchedulingError,
} from '../../src/ensembles/scheduler.js';
import type { SchedulerBook } from '../../src/ensembles/scheduler.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';
import type { ConversationState } from '../../src/ensembles/state.js';

/** An ensemble of script agents (the scheduler never runs them). */
const ensemble = (agents: string, limits = ''): Ensemble =>
  parseEnsemble(`name: s\nagents:\n${agents}${limits ? `\nconversation_limits: ${limits}` : ''}\n`);

/** Records that `names` ran (in one step), with outputs, as the run does: mark, then record. */
function step(
  e: Ensemble,
  state: ConversationState,
  book: SchedulerBook,
  outputs: Record<string, Record<string, unknown>>,
  status: Record<string, 'failed' | 'skipped'> = {},
): void {
  const before = { ...state, agent_execution_count: { ...state.agent_execution_count } };
  for (const name of Object.keys(outputs)) markStarted(e, name, before, book);
  for (const [name, output] of Object.entries(outputs))
    recordTurn(state, {
      agent_name: name,
      input_data: { input: '', context: {} },
      output_data: output,
      execution_time: 0,
      timestamp: 't',
      ...(status[name] ? { status: status[name], error: 'x' } : {}),
    });
}

describe('planStep', () => {
  it('starts with the agents without dependencies, in file order', () => {
    const e = ensemble(
      '  - { name: b, script: x }\n  - { name: c, script: x, depends_on: [a] }\n  - { name: a, script: x }',
    );
    expect(planStep(e, createConversationState(), createBook())).toEqual({
      ready: ['b', 'a'],
      limited: [],
    });
  });

  it('runs a dependent once its dependency has new output, and not again for the same output', () => {
    const e = ensemble('  - { name: a, script: x }\n  - { name: b, script: x, depends_on: [a] }');
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: { n: 1 } });
    expect(planStep(e, state, book).ready).toEqual(['b']);
    step(e, state, book, { b: { n: 1 } });
    expect(planStep(e, state, book)).toEqual({ ready: [], limited: [] });
  });

  it('an agent without dependencies runs on every step until it ran max_turns times', () => {
    const e = ensemble('  - { name: tick, script: x, conversation: { max_turns: 3 } }');
    const state = createConversationState();
    const book = createBook();
    const plans: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const { ready } = planStep(e, state, book);
      plans.push(ready);
      if (ready.length) step(e, state, book, { tick: { i } });
    }
    expect(plans).toEqual([['tick'], ['tick'], ['tick'], []]);
    expect(state.agent_execution_count.tick).toBe(3);
  });

  it('max_agent_executions below max_turns blocks a dependency-free agent as limited', () => {
    const e = ensemble(
      '  - { name: tick, script: x, conversation: { max_turns: 5 } }',
      '{ max_agent_executions: { tick: 1 } }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { tick: {} });
    expect(planStep(e, state, book)).toEqual({ ready: [], limited: ['tick'] });
  });

  it('triggers_conversation lets an agent start once before its dependencies ran', () => {
    const e = ensemble(
      "  - { name: w, script: x, depends_on: [{ agent_name: r, condition: 'true', max_executions: 3 }], conversation: { max_turns: 3, triggers_conversation: true } }\n" +
        '  - { name: r, script: x, depends_on: [{ agent_name: w, max_executions: 3 }], conversation: { max_turns: 3 } }',
    );
    const state = createConversationState();
    const book = createBook();
    expect(planStep(e, state, book).ready).toEqual(['w']);
    step(e, state, book, { w: { d: 1 } });
    expect(planStep(e, state, book).ready).toEqual(['r']);
    step(e, state, book, { r: { ok: false } });
    expect(planStep(e, state, book).ready).toEqual(['w']);
  });

  it('a condition gates its dependency; an exhausted max_executions makes it not ready (not limited)', () => {
    const e = ensemble(
      '  - { name: a, script: x, conversation: { max_turns: 5 } }\n' +
        '  - { name: b, script: x, depends_on: [{ agent_name: a, condition: "outputs.a.go == true", max_executions: 1 }], conversation: { max_turns: 5 } }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: { go: false } });
    expect(planStep(e, state, book).ready).toEqual(['a']);
    step(e, state, book, { a: { go: true } });
    expect(planStep(e, state, book).ready).toEqual(['a', 'b']);
    step(e, state, book, { a: { go: true }, b: {} });
    expect(planStep(e, state, book)).toEqual({ ready: ['a'], limited: [] });
    expect(book.triggers.b).toEqual({ a: 1 });
  });

  it('requires_all: false needs any one of those dependencies', () => {
    const e = ensemble(
      '  - { name: a, script: x }\n  - { name: b, script: x }\n' +
        '  - { name: c, script: x, depends_on: [{ agent_name: a, requires_all: false }, { agent_name: b, requires_all: false }] }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: {} });
    expect(planStep(e, state, book).ready).toEqual(['b', 'c']);
  });

  it('a requested agent runs in the next step even without new dependency output', () => {
    const e = ensemble(
      '  - { name: a, script: x }\n  - { name: helper, script: x, depends_on: [a], conversation: { max_turns: 3 } }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: {} });
    step(e, state, book, { helper: {} });
    expect(planStep(e, state, book).ready).toEqual([]);
    book.requests.helper = [{ from: 'a', parameters: { x: 1 }, priority: 0 }];
    expect(planStep(e, state, book).ready).toEqual(['helper']);
    step(e, state, book, { helper: {} });
    expect(book.requests.helper).toBeUndefined();
    expect(planStep(e, state, book).ready).toEqual([]);
  });

  it('a failed dependency still triggers its dependents (they see the failure)', () => {
    const e = ensemble('  - { name: a, script: x }\n  - { name: b, script: x, depends_on: [a] }');
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: {} }, { a: 'failed' });
    expect(planStep(e, state, book).ready).toEqual(['b']);
    expect(conditionContext(state).failures).toEqual({ a: 'x' });
    expect(state.latest_outputs).toEqual({});
  });

  it('a failing condition throws SchedulingError naming the agent', () => {
    const e = ensemble(
      '  - { name: a, script: x }\n  - { name: b, script: x, depends_on: [{ agent_name: a, condition: "state.a.missing" }] }',
    );
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: {} });
    let error: unknown;
    try {
      planStep(e, state, book);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchedulingError);
    expect((error as SchedulingError).agent).toBe('b');
    expect((error as Error).message).toMatch(/While scheduling agent "b"/);
  });

  it('is pure: planning twice from the same state gives the same plan and changes nothing', () => {
    const e = ensemble('  - { name: a, script: x }\n  - { name: b, script: x, depends_on: [a] }');
    const state = createConversationState();
    const book = createBook();
    step(e, state, book, { a: {} });
    const before = structuredClone({ state, book });
    expect(planStep(e, state, book)).toEqual(planStep(e, state, book));
    expect({ state, book }).toEqual(before);
  });
});

describe('markStarted', () => {
  it('records the dependencies consumed and counts a trigger only for new output', () => {
    const e = ensemble('  - { name: a, script: x }\n  - { name: b, script: x, depends_on: [a] }');
    const book = createBook();
    const state = createConversationState();
    markStarted(e, 'b', state, book);
    expect(book).toEqual({ consumed: { b: { a: 0 } }, triggers: { b: {} }, requests: {} });
    state.agent_execution_count.a = 2;
    markStarted(e, 'b', state, book);
    markStarted(e, 'b', state, book);
    expect(book.consumed.b).toEqual({ a: 2 });
    expect(book.triggers.b).toEqual({ a: 1 });
  });

  it('ignores unknown agents and clears the agent requests it consumed', () => {
    const e = ensemble('  - { name: a, script: x }');
    const book = createBook();
    book.requests.a = [{ from: 'x', parameters: {}, priority: 1 }];
    markStarted(e, 'nobody', createConversationState(), book);
    expect(book.requests.a).toHaveLength(1);
    markStarted(e, 'a', createConversationState(), book);
    expect(book.requests).toEqual({});
  });
});
