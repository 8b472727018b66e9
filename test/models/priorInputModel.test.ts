import { Agent, Runner } from '@openai/agents-core';
import type { AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { PriorInputModel } from '../../src/models/priorInputModel.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

const runner = new Runner({ tracingDisabled: true });
const prior: AgentInputItem[] = [
  { role: 'user', content: 'first question' },
  {
    type: 'message',
    id: 'msg_earlier',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'first answer' }],
  },
];
const texts = (input: string | AgentInputItem[]) =>
  (typeof input === 'string' ? [input] : input).map((item) =>
    typeof item === 'string' ? item : JSON.stringify((item as { content?: unknown }).content),
  );

describe('PriorInputModel', () => {
  it('gives the model the earlier items before the run input, and the run only the new ones', async () => {
    const scripted = new ScriptedModel(['second answer', 'streamed answer']);
    const agent = new Agent({
      name: 'a',
      instructions: 'x',
      model: new PriorInputModel(scripted, prior),
    });
    const result = await runner.run(agent, [{ role: 'user', content: 'second question' }]);
    expect(texts(scripted.calls[0]!.request.input)).toEqual([
      '"first question"',
      '[{"type":"output_text","text":"first answer"}]',
      '"second question"',
    ]);
    // The run's own history is the new message and the answer: the earlier items are the caller's.
    expect(result.history).toHaveLength(2);
    expect(result.finalOutput).toBe('second answer');

    const streamed = await runner.run(agent, 'third question', { stream: true });
    await streamed.completed;
    expect(texts(scripted.calls[1]!.request.input)).toEqual([
      '"first question"',
      '[{"type":"output_text","text":"first answer"}]',
      '"third question"',
    ]);
    expect(streamed.finalOutput).toBe('streamed answer');
    // The shared items are not changed by the calls.
    expect(prior).toHaveLength(2);
  });

  it('passes a request through unchanged when there is nothing earlier', async () => {
    const scripted = new ScriptedModel(['ok']);
    const model = new PriorInputModel(scripted, []);
    const request = {
      input: 'hello',
      modelSettings: {},
      tools: [],
      handoffs: [],
      outputType: 'text',
      tracing: false,
    } as unknown as Parameters<ScriptedModel['getResponse']>[0];
    await model.getResponse(request);
    expect(scripted.calls[0]!.request).toBe(request);
  });
});
