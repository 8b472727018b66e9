import { describe, expect, it } from 'vitest';
import { printResult, progressReporter } from '../../../../src/cli/commands/ensembles/progress.js';
import type { ConversationResult } from '../../../../src/ensembles/result.js';
import { llmOrcView } from '../../../../src/ensembles/llmorc/results.js';
import { io } from './helpers.js';

const result: ConversationResult = {
  run_id: 'run-1',
  final_state: { a: { response: 'hello' } },
  conversation_history: [
    {
      turn_number: 1,
      agent_name: 'a',
      input_data: {},
      output_data: { response: 'hello\nworld' },
      execution_time: 0.25,
      timestamp: '2026-01-01T00:00:00Z',
    },
  ],
  turn_count: 1,
  completion_reason: 'error',
  usage: { requests: 1, input_tokens: 2, output_tokens: 3, total_tokens: 5 },
  agent_execution_count: { a: 1 },
  error: { agent: 'b', message: 'it broke' },
};
const view = llmOrcView(result, {
  ensemble: 'e',
  agents: ['a', 'b'],
  input: 'in',
  startedAt: new Date(0),
  completedAt: new Date(1000),
});

describe('invoke output', () => {
  it('text output: reason, turns, error, then each agent result when detailed', async () => {
    await printResult(result, 'text', view, true);
    expect(io.out).toContain(
      'completion_reason: error\nturn_count: 1\nrun_id: run-1\nerror: b: it broke',
    );
    expect(io.out).toContain(
      'results:\n  a [success]:\n    hello\n    world\n  b [failed]:\n    error: it broke',
    );
    expect(io.out).toContain('final_state:');
  });

  it('rich output: status with usage, the turn table; not detailed leaves results out', async () => {
    await printResult(result, 'rich', view, false);
    expect(io.out).toContain('✗ completed_with_errors  1 turns · 1 requests, 5 tokens · run run-1');
    expect(io.out).toMatch(
      /^ {2}turn {2}agent +time {2}output\n {5}1 {2}a +0\.25 s {2}\{ response: hello world \}$/m,
    );
    expect(io.out).not.toContain('Results');
  });

  it('json output is the result itself', async () => {
    await printResult(result, 'json');
    expect(JSON.parse(io.out)).toEqual(result);
  });

  it('progress lines go to stderr', () => {
    const progress = progressReporter();
    progress.onEvent({ type: 'agent_started', agent: 'a' } as never);
    progress.onEvent({ type: 'agent_finished', agent: 'a', success: false, error: 'bad' } as never);
    progress.stop();
    expect(io.err).toContain('✗ a: bad');
  });

  it('a dispatch prints its reference and the ensemble it resolved to', () => {
    const progress = progressReporter();
    progress.onEvent({
      type: 'agent_dispatched',
      agent: 'seat',
      reference: '${route.target}',
      target: 'code-seat',
      ensemble: 'code-seat',
      child_run_id: 'r/seat/1',
    });
    progress.stop();
    expect(io.err).toContain('→ seat: dispatch ${route.target} → code-seat\n');
  });
});
