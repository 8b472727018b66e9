import { describe, expect, it } from 'vitest';
import {
  addLlmOrcUsage,
  emptyLlmOrcUsage,
  fromLlmOrcUsage,
  toLlmOrcUsage,
} from '../../src/ensembles/llmOrcUsage.js';
import {
  createConversationState,
  headOf,
  latestFailures,
  latestOutputs,
  recordTurn,
  totalUsage,
} from '../../src/ensembles/state.js';

const base = { input_data: { input: '', context: {} }, execution_time: 0, timestamp: 't' };

describe('conversation state', () => {
  it('records turns: counts, history, outputs under the state key, usage and request counts', () => {
    const state = createConversationState({ seed: true });
    recordTurn(
      state,
      {
        ...base,
        agent_name: 'a',
        output_data: { n: 1 },
        usage: { requests: 2, input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        input_requests: [{ prompt: 'q', key: 'k', answer: 'x' }],
      },
      'analysis',
    );
    recordTurn(state, { ...base, agent_name: 'b', output_data: { m: 2 } });
    expect(state.turn_count).toBe(2);
    expect(state.conversation_history.map((turn) => turn.turn_number)).toEqual([1, 2]);
    expect(state.accumulated_context).toEqual({ seed: true, analysis: { n: 1 }, b: { m: 2 } });
    expect(latestOutputs(state)).toEqual({ a: { n: 1 }, b: { m: 2 } });
    expect(state.model_requests).toEqual({ a: 2 });
    expect(state.input_requests).toEqual({ a: 1 });
    expect(totalUsage(state)).toEqual({
      requests: 2,
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
    });
  });

  it('a failed turn counts as an execution but keeps the previous output and context', () => {
    const state = createConversationState();
    recordTurn(state, { ...base, agent_name: 'a', output_data: { v: 1 } });
    recordTurn(state, {
      ...base,
      agent_name: 'a',
      output_data: {},
      status: 'failed',
      error: 'boom',
    });
    expect(state.agent_execution_count.a).toBe(2);
    expect(state.accumulated_context.a).toEqual({ v: 1 });
    expect(latestFailures(state)).toEqual({ a: 'boom' });
    expect(state.failed_agents).toEqual(['a']);
    // A later success clears the failure, not the record of it.
    recordTurn(state, { ...base, agent_name: 'a', output_data: { v: 3 } });
    expect(latestFailures(state)).toEqual({});
    expect(state.failed_agents).toEqual(['a']);
  });

  it('skipped turns are neither failures nor outputs', () => {
    const state = createConversationState();
    recordTurn(state, { ...base, agent_name: 'a', output_data: {}, status: 'skipped' });
    expect(state.latest_status).toEqual({ a: { status: 'skipped' } });
    expect(latestFailures(state)).toEqual({});
    expect(state.failed_agents).toEqual([]);
    expect(latestOutputs(state)).toEqual({});
  });

  it('the head is a deep copy without the history', () => {
    const state = createConversationState();
    recordTurn(state, { ...base, agent_name: 'a', output_data: { deep: { x: 1 } } });
    const head = headOf(state);
    expect(head).not.toHaveProperty('conversation_history');
    (head.latest_outputs.a!.deep as { x: number }).x = 2;
    expect(state.latest_outputs.a).toEqual({ deep: { x: 1 } });
  });

  it("converts usage to and from llm-orc's spelling, in one place", () => {
    const usage = { requests: 1, inputTokens: 2, outputTokens: 3, totalTokens: 5 };
    const llmOrc = { requests: 1, input_tokens: 2, output_tokens: 3, total_tokens: 5 };
    expect(toLlmOrcUsage(usage)).toEqual(llmOrc);
    expect(fromLlmOrcUsage(llmOrc)).toEqual(usage);
    expect(toLlmOrcUsage({ ...usage, cost: 1e-12, costPico: 1 })).toEqual(llmOrc);
  });

  it('adds usages', () => {
    const one = { requests: 1, input_tokens: 2, output_tokens: 3, total_tokens: 5 };
    expect(addLlmOrcUsage(emptyLlmOrcUsage(), one)).toEqual(one);
    expect(addLlmOrcUsage(one, undefined)).toBe(one);
    expect(addLlmOrcUsage(one, one)).toEqual({
      requests: 2,
      input_tokens: 4,
      output_tokens: 6,
      total_tokens: 10,
    });
  });
});
