import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LlmInputHandler, ScriptedInputHandler } from '../../src/ensembles/inputHandlers.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { createConversationState } from '../../src/ensembles/state.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

describe('input handlers', () => {
  it('answers agent_requests of a script from an answers file, in order per agent', async () => {
    const dir = tempDir();
    const asker = writeScript(
      dir,
      'ask.js',
      `reply({ success: true, data: { asked: true }, agent_requests: [{ prompt: 'Which region?', key: 'region' }] });`,
    );
    const answers = path.join(dir, 'answers.yaml');
    writeFileSync(answers, 'answers:\n  ask:\n    - EMEA\n    - APAC\n');
    const ensemble = ensembleFrom(
      `name: ask\nagents:\n  - name: ask\n    script: ${asker}\n    depends_on: [{ agent_name: ask, condition: 'executions.ask < 2' }]\n    conversation: { max_turns: 2, triggers_conversation: true }\n`,
      dir,
    );
    const result = await runEnsemble(ensemble, {
      inputHandler: await ScriptedInputHandler.fromFile(answers),
    });
    expect(result.conversation_history.map((turn) => turn.output_data.region)).toEqual([
      'EMEA',
      'APAC',
    ]);
    expect(result.conversation_history[0]!.input_requests).toEqual([
      { prompt: 'Which region?', key: 'region', answer: 'EMEA' },
    ]);
  });

  it('without a handler, a question is a clear agent error', async () => {
    const dir = tempDir();
    const asker = writeScript(
      dir,
      'ask.js',
      `reply({ success: true, data: {}, agent_requests: [{ prompt: 'Name?' }] });`,
    );
    const result = await runEnsemble(
      ensembleFrom(`name: ask\nagents:\n  - { name: ask, script: ${asker} }\n`, dir),
    );
    expect(result.completion_reason).toBe('completed');
    expect(result.failed_agents).toEqual(['ask']);
    expect(result.conversation_history[0]!.status).toBe('failed');
    expect(result.conversation_history[0]!.error).toMatch(
      /asked for user input \("Name\?"\) but the run has no input handler/,
    );
  });

  it('LLM agents ask through the request_user_input tool', async () => {
    const dir = tempDir();
    const ensemble = ensembleFrom(
      'name: llm\nagents:\n  - { name: interviewer, model_profile: p }\n',
      dir,
    );
    const result = await runEnsemble(ensemble, {
      createModel: () =>
        new ScriptedModel([
          { tool: 'request_user_input', args: { prompt: 'Your name?' } },
          (request) =>
            `{"name": ${JSON.stringify(JSON.stringify(request.input).includes('Ada') ? 'Ada' : '?')}}`,
        ]),
      inputHandler: new ScriptedInputHandler({ interviewer: 'Ada' }),
    });
    expect(result.final_state).toEqual({ interviewer: { name: 'Ada' } });
    expect(result.conversation_history[0]!.input_requests).toEqual([
      { prompt: 'Your name?', key: 'user_input', answer: 'Ada' },
    ]);
  });

  it('LlmInputHandler generates answers with a model and caches them', async () => {
    const model = new ScriptedModel(['Blue.', 'Green.']);
    const handler = new LlmInputHandler({ model });
    const request = {
      agent: 'a',
      prompt: 'Favourite colour?',
      index: 0,
      state: createConversationState(),
    };
    expect(await handler.answer(request)).toBe('Blue.');
    expect(await handler.answer(request)).toBe('Blue.');
    expect(model.calls).toHaveLength(1);
  });
});
