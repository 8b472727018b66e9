import { describe, expect, it } from 'vitest';
import { agentInput, fanOutItems, selectInputKey } from '../../src/ensembles/inputs.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';
import type { ConversationState } from '../../src/ensembles/state.js';

const ensemble = parseEnsemble(
  'name: i\nagents:\n  - { name: up, script: x }\n  - { name: other, script: x }\n' +
    '  - { name: both, script: x, depends_on: [up, other] }\n' +
    '  - { name: pick, script: x, depends_on: [up], input_key: items }\n' +
    '  - { name: fan, script: x, depends_on: [up], fan_out: true }\n' +
    '  - { name: fankey, script: x, depends_on: [up], fan_out: true, input_key: items }\n' +
    '  - { name: lonely, script: x, input_key: items }\n',
);
const agent = (name: string) => ensemble.agents.find((a) => a.name === name)!;

function withOutput(
  output: Record<string, unknown>,
  name = 'up',
  state = createConversationState(),
): ConversationState {
  return recordTurn(state, {
    agent_name: name,
    input_data: { input: '', context: {} },
    output_data: output,
    execution_time: 0,
    timestamp: 't',
  });
}

describe('agentInput', () => {
  it('gives the task and the latest output of each dependency that has one', () => {
    const state = withOutput({ a: 1 });
    expect(agentInput(agent('both'), 'task', state)).toEqual({
      input: 'task',
      context: { up: { a: 1 } },
    });
  });

  it('lists failed dependencies with their error', () => {
    const state = withOutput({ a: 1 });
    recordTurn(state, {
      agent_name: 'other',
      input_data: { input: '', context: {} },
      output_data: {},
      execution_time: 0,
      timestamp: 't',
      status: 'failed',
      error: 'exited with code 2',
    });
    expect(agentInput(agent('both'), 'task', state).failed).toEqual({
      other: 'exited with code 2',
    });
  });

  it('hands over waiting agent requests and the first one`s parameters', () => {
    const book = createBook();
    book.requests.both = [
      { from: 'up', parameters: { x: 2 }, priority: 5 },
      { from: 'other', parameters: { x: 1 }, priority: 0 },
    ];
    const input = agentInput(agent('both'), 'task', createConversationState(), book);
    expect(input.parameters).toEqual({ x: 2 });
    expect(input.requests).toHaveLength(2);
  });

  it('input_key selects one key of the first dependency (strings as is, else JSON)', () => {
    expect(agentInput(agent('pick'), 'task', withOutput({ items: ['a', 'b'] })).input).toBe(
      '["a","b"]',
    );
    expect(agentInput(agent('pick'), 'task', withOutput({ items: 'text' })).input).toBe('text');
  });

  it('a missing input_key is an input error that fails the agent, naming the keys there are', () => {
    expect(agentInput(agent('pick'), 'task', withOutput({ other: 1 })).input_error).toBe(
      'input_key "items" is not a key of the output of "up" (keys: other)',
    );
    expect(selectInputKey(agent('pick'), createConversationState())).toEqual({
      error: 'input_key "items": dependency "up" has no successful output',
    });
    expect(selectInputKey(agent('lonely'), createConversationState())).toEqual({
      error: 'input_key "items" needs a dependency to select from; add depends_on',
    });
  });
});

describe('fanOutItems', () => {
  it('takes the value input_key selects (an array, or JSON text of one)', () => {
    expect(fanOutItems(agent('fankey'), withOutput({ items: [1, 2, 3] }))).toEqual([1, 2, 3]);
    expect(fanOutItems(agent('fankey'), withOutput({ items: '["x"]' }))).toEqual(['x']);
    expect(fanOutItems(agent('fankey'), withOutput({ items: 5 }))).toEqual({
      error: 'fan_out needs an array, but input_key "items" of "up" is 5',
    });
  });

  it('without input_key: the response array, else the only array-valued key', () => {
    expect(fanOutItems(agent('fan'), withOutput({ response: '[1, 2]' }))).toEqual([1, 2]);
    expect(fanOutItems(agent('fan'), withOutput({ n: 1, list: ['a'] }))).toEqual(['a']);
    expect(fanOutItems(agent('fan'), withOutput({ a: [1], b: [2] }))).toEqual({
      error: 'fan_out: the output of "up" has 2 array-valued keys (a, b); name one with input_key',
    });
    expect(fanOutItems(agent('fan'), createConversationState())).toEqual({
      error: 'fan_out: dependency "up" has no successful output',
    });
  });
});
