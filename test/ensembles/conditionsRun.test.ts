import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

function withCondition(dir: string, condition: string) {
  const source = writeScript(
    dir,
    'source.js',
    `reply({ success: true, data: { score: 7, tags: ['a', 'b'] } });`,
  );
  const sink = writeScript(dir, 'sink.js', `reply({ success: true, data: { ran: true } });`);
  return ensembleFrom(
    `name: cond
agents:
  - { name: source, script: ${source}, conversation: { state_key: scored } }
  - name: sink
    script: ${sink}
    depends_on:
      - agent_name: source
        condition: ${JSON.stringify(condition)}
`,
    dir,
  );
}

describe('conditions in a run', () => {
  it('true: the dependent agent runs (state_key names the slot in state)', async () => {
    const result = await runEnsemble(
      withCondition(
        tempDir(),
        "state.scored.score > 5 && 'a' in outputs.source.tags && executions.source == 1 && turn == 1",
      ),
    );
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual(['source', 'sink']);
    expect(result.final_state).toEqual({
      scored: { score: 7, tags: ['a', 'b'] },
      sink: { ran: true },
    });
  });

  it('false: the dependent agent does not run and the run completes', async () => {
    const result = await runEnsemble(withCondition(tempDir(), 'state.scored.score > 10'));
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual(['source']);
    expect(result.completion_reason).toBe('completed');
  });

  it('erroring: the run ends with error, naming the agent and the condition', async () => {
    const result = await runEnsemble(withCondition(tempDir(), 'state.scored.missing > 1'));
    expect(result.completion_reason).toBe('error');
    expect(result.error?.agent).toBe('sink');
    expect(result.error?.message).toMatch(/state\.scored\.missing > 1.*No such key: missing/s);
  });
});
