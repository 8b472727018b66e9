import type { ModelRequest, StreamEvent } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, ScriptError } from '../../src/models/scriptedModel.js';

const ask = (input: string, signal?: AbortSignal): ModelRequest =>
  ({
    input,
    modelSettings: {},
    tools: [],
    handoffs: [],
    outputType: 'text',
    tracing: false,
    ...(signal ? { signal } : {}),
  }) as unknown as ModelRequest;

async function stream(model: ScriptedModel, request: ModelRequest): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of model.getStreamedResponse(request)) events.push(event);
  return events;
}

describe('ScriptedModel', () => {
  it('answers its steps in order, with text, usage and response ids', async () => {
    const model = new ScriptedModel(
      ['one', { text: 'two', usage: { inputTokens: 5, outputTokens: 7 } }],
      { name: 'm' },
    );
    const first = await model.getResponse(ask('a'));
    expect(first.responseId).toBe('resp_m_1');
    expect(first.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'one' }],
    });
    const second = await model.getResponse(ask('b'));
    expect(second.usage).toMatchObject({ inputTokens: 5, outputTokens: 7, totalTokens: 12 });
    expect(model.calls.map((c) => c.request.input)).toEqual(['a', 'b']);
  });

  it('fails with MODEL_ERROR naming the model and the call when the script runs out', async () => {
    const model = new ScriptedModel(['only'], { name: 'short' });
    await model.getResponse(ask('a'));
    const error = await model.getResponse(ask('b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptError);
    expect(error).toMatchObject({ code: 'MODEL_ERROR' });
    expect((error as Error).message).toContain(
      'ScriptedModel "short" has no step for call #2 (it has 1)',
    );
  });

  it('repeats the last step when asked to, and by default for a responder', async () => {
    const repeating = new ScriptedModel(['x', 'last'], { repeatLast: true });
    for (const _ of [1, 2]) await repeating.getResponse(ask('q'));
    expect((await repeating.getResponse(ask('q'))).output[0]).toMatchObject({
      content: [{ text: 'last' }],
    });
    const responder = new ScriptedModel((request, index) => `${String(request.input)}#${index}`);
    await responder.getResponse(ask('a'));
    expect((await responder.getResponse(ask('b'))).output[0]).toMatchObject({
      content: [{ text: 'b#1' }],
    });
  });

  it('keeps no calls with recordCalls: false, still counting them for steps and call indexes', async () => {
    const model = new ScriptedModel(
      [(_request, index) => `first#${index}`, (_request, index) => `second#${index}`],
      { recordCalls: false, name: 'quiet' },
    );
    expect((await model.getResponse(ask('a'))).output[0]).toMatchObject({
      content: [{ text: 'first#0' }],
    });
    expect((await model.getResponse(ask('b'))).output[0]).toMatchObject({
      content: [{ text: 'second#1' }],
    });
    expect(model.calls).toEqual([]);
    const error = await model.getResponse(ask('c')).catch((e: unknown) => e);
    expect((error as Error).message).toContain('has no step for call #3 (it has 2)');
  });

  it('turns tool steps into function calls with unique call ids', async () => {
    const model = new ScriptedModel([
      { tool: 'lookup', args: { q: 1 } },
      { tools: [{ tool: 'a' }, { tool: 'b', args: { x: 'y' } }] },
    ]);
    const one = await model.getResponse(ask('go'));
    expect(one.output[0]).toMatchObject({
      type: 'function_call',
      name: 'lookup',
      arguments: '{"q":1}',
    });
    const two = await model.getResponse(ask('go'));
    expect(two.output.map((o) => (o as { name: string }).name)).toEqual(['a', 'b']);
    expect(two.output[0]).toMatchObject({ arguments: '{}' });
    const ids = [one, two].flatMap((r) => r.output.map((o) => (o as { callId: string }).callId));
    expect(new Set(ids).size).toBe(3);
  });

  it('raises a scripted error, an empty tools list, and a responder that never settles', async () => {
    await expect(
      new ScriptedModel([{ error: 'rate limited' }], { name: 'e' }).getResponse(ask('a')),
    ).rejects.toThrow('ScriptedModel "e": rate limited');
    await expect(new ScriptedModel([{ tools: [] }]).getResponse(ask('a'))).rejects.toThrow(
      /empty tools list/,
    );
    const loop = (): never => loop as never;
    await expect(new ScriptedModel([loop]).getResponse(ask('a'))).rejects.toThrow(
      /kept returning functions/,
    );
  });

  it('streams the text in deltas of deltaSize, then response_done with the usage', async () => {
    const model = new ScriptedModel(
      [{ text: 'abcdefg', usage: { inputTokens: 1, outputTokens: 2 } }],
      { deltaSize: 3 },
    );
    const events = await stream(model, ask('s'));
    expect(events[0]).toEqual({ type: 'response_started' });
    expect(
      events
        .filter((e) => e.type === 'output_text_delta')
        .map((e) => (e as { delta: string }).delta),
    ).toEqual(['abc', 'def', 'g']);
    const done = events.at(-1) as Extract<StreamEvent, { type: 'response_done' }>;
    expect(done.type).toBe('response_done');
    expect(done.response.usage).toMatchObject({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
  });

  it('refuses an aborted request, before answering and mid-stream', async () => {
    const aborted = AbortSignal.abort();
    const model = new ScriptedModel(['never']);
    await expect(model.getResponse(ask('a', aborted))).rejects.toThrow();
    expect(model.calls).toHaveLength(0);
    const controller = new AbortController();
    const long = new ScriptedModel(['x'.repeat(64)], { deltaSize: 1 });
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of long.getStreamedResponse(ask('s', controller.signal))) {
          seen.push(event);
          if (seen.length === 3) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(seen.length).toBeLessThan(10);
  });
});
