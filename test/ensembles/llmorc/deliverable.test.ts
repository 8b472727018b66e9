import { describe, expect, it } from 'vitest';
import { deliverableOf } from '../../../src/ensembles/llmorc/deliverable.js';
import type { ConversationResult } from '../../../src/ensembles/runState.js';

function result(turns: Array<[string, object, 'failed'?]>): ConversationResult {
  return {
    run_id: 'r',
    final_state: {},
    conversation_history: turns.map(([agent, output, status], i) => ({
      turn_number: i + 1,
      agent_name: agent,
      input_data: {},
      output_data: output as Record<string, unknown>,
      execution_time: 0,
      timestamp: 't',
      ...(status ? { status } : {}),
    })),
    turn_count: turns.length,
    completion_reason: 'completed',
    usage: { requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    agent_execution_count: {},
  };
}

const agent = (name: string, ...deps: string[]) => ({
  name,
  depends_on: deps.map((d) => ({ agent_name: d, max_executions: 1, requires_all: true })),
});
// draft → review → emit; notes is a second terminal declared before emit.
const agents = [
  agent('draft'),
  agent('notes', 'draft'),
  agent('review', 'draft'),
  agent('emit', 'review'),
];

describe('deliverableOf (llm-orc single deliverable)', () => {
  it('is the last terminal agent`s response text, in file order', () => {
    const run = result([
      ['draft', { response: 'd' }],
      ['notes', { response: 'n' }],
      ['review', { response: 'r' }],
      ['emit', { verdict: 'ok' }],
    ]);
    expect(deliverableOf(run, agents)).toBe('{"verdict":"ok"}');
  });

  it('falls back to an earlier terminal, then to any agent, when terminals failed or said nothing', () => {
    expect(
      deliverableOf(
        result([
          ['draft', { response: 'd' }],
          ['notes', { response: 'n' }],
          ['emit', { response: 'x' }, 'failed'],
        ]),
        agents,
      ),
    ).toBe('n');
    expect(
      deliverableOf(
        result([
          ['draft', { response: 'd' }],
          ['review', { response: 'r' }],
          ['emit', { response: '' }],
        ]),
        agents,
      ),
    ).toBe('r');
  });

  it('uses the latest turn of an agent that ran more than once, and is undefined when nothing ran', () => {
    const run = result([
      ['emit', { response: 'first' }],
      ['emit', { response: 'second' }],
    ]);
    expect(deliverableOf(run, agents)).toBe('second');
    expect(deliverableOf(result([]), agents)).toBeUndefined();
  });
});
