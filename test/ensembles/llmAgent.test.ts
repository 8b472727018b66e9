import { Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { lastUserText } from '../../src/models/requestText.js';
import { parseLlmOutput } from '../../src/ensembles/llmAgent.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

describe('LLM agents', () => {
  it('keep their turns in their own sub-thread, see them when re-triggered, and sum usage', async () => {
    const dir = tempDir();
    const critic = writeScript(
      dir,
      'critic.js',
      `reply({ success: true, data: { ok: msg.conversation_state.agent_execution_count.critic === 1 } });`,
    );
    const ensemble = ensembleFrom(
      `name: llm
agents:
  - name: writer
    model_profile: p
    system_prompt: Write.
    depends_on: [{ agent_name: critic, condition: '!state.critic.ok', max_executions: 3 }]
    conversation: { max_turns: 3, triggers_conversation: true }
  - name: critic
    script: ${critic}
    depends_on: [{ agent_name: writer, max_executions: 3 }]
    conversation: { max_turns: 3 }
`,
      dir,
    );
    const seen: number[] = [];
    const model = new ScriptedModel((request) => {
      seen.push(Array.isArray(request.input) ? request.input.length : 1);
      return {
        text: `draft ${seen.length} for ${lastUserText(request).slice(0, 10)}`,
        usage: { inputTokens: 7, outputTokens: 3 },
      };
    });
    const store = new MemoryStore();
    // The Runner is given the turn's message alone; the earlier items reach the model directly.
    const runInputs: number[] = [];
    const run = Runner.prototype.run;
    Runner.prototype.run = function counted(this: Runner, ...args: unknown[]) {
      runInputs.push(Array.isArray(args[1]) ? args[1].length : 1);
      return (run as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof run;
    const result = await runEnsemble(ensemble, {
      store,
      runId: 'r',
      createModel: () => model,
    }).finally(() => {
      Runner.prototype.run = run;
    });
    expect(runInputs).toEqual([1, 1]);
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'writer',
      'critic',
      'writer',
      'critic',
    ]);
    expect(seen).toEqual([1, 3]);
    expect(result.usage).toEqual({
      requests: 2,
      input_tokens: 14,
      output_tokens: 6,
      total_tokens: 20,
    });
    const items = await store.readItems('r::writer');
    expect(
      items.map((entry) => ('role' in entry.item ? entry.item.role : entry.item.type)),
    ).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((result.final_state.writer as { response: string }).response).toMatch(
      /^draft 2 for Task: /,
    );
  });

  it('parse JSON replies (also fenced) into output data, other text into { response }', () => {
    expect(parseLlmOutput('{"a": 1}')).toEqual({ a: 1 });
    expect(parseLlmOutput('```json\n{"a": 2}\n```')).toEqual({ a: 2 });
    expect(parseLlmOutput('plain')).toEqual({ response: 'plain' });
  });

  it('a model error is an agent error (on_failure: stop ends the run with it)', async () => {
    const dir = tempDir();
    const result = await runEnsemble(
      ensembleFrom('name: e\non_failure: stop\nagents:\n  - { name: w, model_profile: p }\n', dir),
      {
        createModel: () => new ScriptedModel([{ error: 'rate limited' }]),
      },
    );
    expect(result.completion_reason).toBe('error');
    expect(result.error).toMatchObject({
      agent: 'w',
      message: expect.stringContaining('rate limited'),
    });
  });
});
