import { describe, expect, it } from 'vitest';
import { applyRunEvent, emptyRun, type EnsembleRunView } from '../../studio/src/lib/ensembleRun.js';
import type { ConversationTurn, EnsembleEvent } from '../../studio/src/lib/types.js';

const turn = (n: number, agent: string): ConversationTurn => ({
  turn_number: n,
  agent_name: agent,
  input_data: {},
  output_data: { n },
  execution_time: 0.1,
  timestamp: '2026-01-01T00:00:00.000Z',
});

const fold = (events: EnsembleEvent[]): EnsembleRunView[] => {
  const views: EnsembleRunView[] = [];
  let view = emptyRun();
  for (const event of events) views.push((view = applyRunEvent(view, event)));
  return views;
};

describe('applyRunEvent', () => {
  it('tracks the agents running now, counts, turns and the completion reason', () => {
    const views = fold([
      { type: 'ensemble_started', run_id: 'r1', ensemble: 'dag', resumed: false, turn_count: 0 },
      { type: 'step_started', step: 1, agents: ['a', 'b'], turn_count: 0 },
      { type: 'agent_started', step: 1, agent: 'a' },
      { type: 'agent_started', step: 1, agent: 'b' },
      { type: 'agent_finished', step: 1, agent: 'a', success: true, execution_time: 0.1 },
      { type: 'turn_recorded', turn: turn(1, 'a'), turn_count: 1 },
      {
        type: 'agent_finished',
        step: 1,
        agent: 'b',
        success: false,
        execution_time: 0.1,
        error: 'exit 1',
      },
      {
        type: 'ensemble_finished',
        result: {
          run_id: 'r1',
          final_state: {},
          conversation_history: [turn(1, 'a')],
          turn_count: 1,
          completion_reason: 'error',
          usage: { requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 },
          agent_execution_count: { a: 1, b: 1 },
        },
      },
    ]);
    expect(views[3]!.running).toEqual(['a', 'b']);
    expect(views[4]!.running).toEqual(['b']);
    expect(views[5]).toMatchObject({ turnCount: 1, counts: { a: 1 } });
    expect(views[6]!.failed).toEqual({ b: 'exit 1' });
    const last = views[views.length - 1]!;
    expect(last).toMatchObject({ runId: 'r1', running: [], turnCount: 1, counts: { a: 1, b: 1 } });
    expect(last.result?.completion_reason).toBe('error');
    expect(last.history).toHaveLength(1);
  });

  it('records a resumed run and an error event', () => {
    const [started, failed] = fold([
      { type: 'ensemble_started', run_id: 'r2', ensemble: 'dag', resumed: true, turn_count: 3 },
      { type: 'error', error: { message: 'aborted', code: 'ABORTED' } },
    ]);
    expect(started).toMatchObject({ resumed: true, turnCount: 3 });
    expect(failed!.error).toEqual({ message: 'aborted', code: 'ABORTED' });
  });
});
