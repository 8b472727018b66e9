import type { ModelRequest, StreamEvent } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { BranchModel, ReplayTally } from '../../../src/agency/replay/branchModel.js';
import { inputKey, type Recording } from '../../../src/agency/replay/recordings.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';

const request = (text: string) =>
  ({
    input: [{ role: 'user', content: text }],
    tools: [],
    handoffs: [],
    outputType: 'text',
    modelSettings: {},
    tracing: false,
    systemInstructions: 'x',
  }) as unknown as ModelRequest;

function recorded(text: string, answer: string): Recording {
  return {
    agent: 'A',
    threadId: 't',
    position: 1,
    input: inputKey([{ role: 'user', content: text }]),
    output: [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: answer }],
      },
    ] as Recording['output'],
    tokens: { inputTokens: 3, outputTokens: 4 },
    used: false,
  };
}

describe('BranchModel', () => {
  it('answers a recorded input from the recording and any other from the live model', async () => {
    const live = new ScriptedModel(['live answer']);
    const tally = new ReplayTally();
    const model = new BranchModel({
      agent: 'A',
      recordings: [recorded('hi', 'recorded answer')],
      tally,
      live: async () => live,
    });
    const replayed = await model.getResponse(request('hi'));
    expect(replayed.output).toMatchObject([{ content: [{ text: 'recorded answer' }] }]);
    expect(replayed.usage.inputTokens).toBe(3);
    const other = await model.getResponse(request('something else'));
    expect(other.output).toMatchObject([{ content: [{ text: 'live answer' }] }]);
    expect(live.calls).toHaveLength(1);
    expect(tally.of('A')).toEqual({ replayed: 1, live: 1, inputTokens: 13, outputTokens: 9 });
    expect([tally.replayed, tally.live]).toEqual([1, 1]);
  });

  it('streams a recorded answer, and never replays for a changed agent', async () => {
    const tally = new ReplayTally();
    const model = new BranchModel({
      agent: 'A',
      recordings: [recorded('hi', 'streamed')],
      tally,
      live: async () => new ScriptedModel(['fresh']),
    });
    const events: StreamEvent[] = [];
    for await (const event of model.getStreamedResponse(request('hi'))) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response_started',
      'output_text_delta',
      'response_done',
    ]);
    const changed = new BranchModel({
      agent: 'A',
      recordings: [recorded('hi', 'streamed')],
      tally,
      live: async () => new ScriptedModel(['fresh']),
      alwaysLive: true,
    });
    const deltas: string[] = [];
    for await (const event of changed.getStreamedResponse(request('hi')))
      if (event.type === 'output_text_delta') deltas.push(event.delta);
    expect(deltas.join('')).toBe('fresh');
    expect(tally.of('A')).toMatchObject({ replayed: 1, live: 1 });
  });

  it('counts a live call that fails', async () => {
    const tally = new ReplayTally();
    const model = new BranchModel({
      agent: 'A',
      recordings: [],
      tally,
      live: async () => new ScriptedModel([{ error: 'no key' }]),
    });
    await expect(model.getResponse(request('hi'))).rejects.toThrow(/no key/);
    expect(tally.of('A')).toMatchObject({ replayed: 0, live: 1 });
  });
});
