import { describe, expect, it } from 'vitest';
import { buildResult, COMPLETION_REASONS } from '../../src/ensembles/result.js';
import { conversationResultSchema } from '../../src/ensembles/runState.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';

function state() {
  const s = createConversationState({ seed: 1 });
  recordTurn(s, {
    agent_name: 'a',
    input_data: { input: 't', context: {} },
    output_data: { x: 1 },
    execution_time: 0.5,
    timestamp: 't1',
    usage: { requests: 1, input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  });
  recordTurn(s, {
    agent_name: 'b',
    input_data: { input: 't', context: {} },
    output_data: {},
    execution_time: 0.1,
    timestamp: 't2',
    status: 'failed',
    error: 'broke',
  });
  return s;
}

describe('buildResult', () => {
  it('reports the state: final state, history, counts, usage and failed agents', () => {
    const result = buildResult('run-1', state(), 'completed');
    expect(result).toMatchObject({
      run_id: 'run-1',
      final_state: { seed: 1, a: { x: 1 } },
      turn_count: 2,
      completion_reason: 'completed',
      usage: { requests: 1, input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      agent_execution_count: { a: 1, b: 1 },
      failed_agents: ['b'],
    });
    expect(result.conversation_history.map((turn) => turn.turn_number)).toEqual([1, 2]);
    expect(result.error).toBeUndefined();
    expect(conversationResultSchema.parse(result)).toEqual(result);
  });

  it('carries the failure of an error ending, and its failed_agents is a copy', () => {
    const s = state();
    const result = buildResult('run-2', s, 'error', { agent: 'b', message: 'broke' });
    expect(result.error).toEqual({ agent: 'b', message: 'broke' });
    result.failed_agents!.push('zz');
    expect(s.failed_agents).toEqual(['b']);
  });

  it('lists every completion reason the schema allows', () => {
    expect([...COMPLETION_REASONS].sort()).toEqual(
      [
        'completed',
        'error',
        'max_agent_executions',
        'max_total_turns',
        'no_runnable_agents',
        'timeout',
      ].sort(),
    );
  });
});
