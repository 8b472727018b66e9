import path from 'node:path';
import type { ModelRequest, StreamEvent } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Cassette } from '../../src/models/cassette.js';
import type { CassetteInteraction } from '../../src/models/cassette.js';
import { ReplayModel } from '../../src/models/replayModel.js';
import { normalizeRequest, requestKey } from '../../src/models/requestKey.js';

const request = (text: string, system = 'You are terse.'): ModelRequest =>
  ({
    systemInstructions: system,
    input: text,
    modelSettings: {},
    tools: [],
    handoffs: [],
    outputType: 'text',
    tracing: false,
  }) as unknown as ModelRequest;

const message = (text: string) => [
  {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  },
];
const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 };

function recorded(
  text: string,
  answer: string,
  extra: Partial<CassetteInteraction> = {},
): CassetteInteraction {
  const normalized = normalizeRequest(request(text));
  return {
    key: requestKey(normalized),
    stream: false,
    request: normalized,
    response: { output: message(answer), usage, responseId: `resp-${answer}` },
    ...extra,
  };
}

const cassetteOf = (...interactions: CassetteInteraction[]) =>
  new Cassette(path.join('/nonexistent', 'replay.json'), interactions);

const textOf = (output: unknown[]) =>
  (output as Array<{ content: Array<{ text: string }> }>)[0]!.content[0]!.text;

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function mismatch(model: ReplayModel, text: string): Promise<Error & { code?: string }> {
  const error = await model.getResponse(request(text)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

describe('ReplayModel matching', () => {
  it('plays recordings of one request in order, then repeats the last', async () => {
    const model = new ReplayModel(cassetteOf(recorded('hi', 'one'), recorded('hi', 'two')));
    const answers: string[] = [];
    for (let i = 0; i < 4; i++)
      answers.push(textOf((await model.getResponse(request('hi'))).output));
    expect(answers).toEqual(['one', 'two', 'two', 'two']);
  });

  it('keeps a separate position per request', async () => {
    const model = new ReplayModel(
      cassetteOf(recorded('a', 'a1'), recorded('b', 'b1'), recorded('a', 'a2')),
    );
    expect(textOf((await model.getResponse(request('a'))).output)).toBe('a1');
    expect(textOf((await model.getResponse(request('b'))).output)).toBe('b1');
    expect(textOf((await model.getResponse(request('a'))).output)).toBe('a2');
  });

  it('returns the recorded usage and response id', async () => {
    const response = await new ReplayModel(cassetteOf(recorded('hi', 'x'))).getResponse(
      request('hi'),
    );
    expect(response.responseId).toBe('resp-x');
    expect(response.usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 5 });
  });

  it('streams a non-streamed recording as text deltas and a done event', async () => {
    const model = new ReplayModel(cassetteOf(recorded('hi', 'streamed answer')));
    const events = await collect(model.getStreamedResponse(request('hi')));
    expect(events.map((event) => event.type)).toEqual([
      'response_started',
      'output_text_delta',
      'response_done',
    ]);
    expect(events[1]).toEqual({ type: 'output_text_delta', delta: 'streamed answer' });
    expect(events[2]).toMatchObject({ response: { id: 'resp-streamed answer' } });
  });

  it('replays recorded stream events exactly', async () => {
    const events = [
      { type: 'response_started' },
      { type: 'output_text_delta', delta: 'a' },
      { type: 'response_done', response: { id: 'r1', usage, output: message('a') } },
    ];
    const base = recorded('hi', 'unused');
    const { response: _response, ...withoutResponse } = base;
    const model = new ReplayModel(cassetteOf({ ...withoutResponse, stream: true, events }));
    expect(await collect(model.getStreamedResponse(request('hi')))).toEqual(events);
    const response = await model.getResponse(request('hi'));
    expect(response.responseId).toBe('r1');
    expect(textOf(response.output)).toBe('a');
  });

  it('fails clearly when a streamed recording has no response_done event', async () => {
    const base = recorded('hi', 'unused');
    const { response: _response, ...withoutResponse } = base;
    const model = new ReplayModel(
      cassetteOf({ ...withoutResponse, stream: true, events: [{ type: 'response_started' }] }),
    );
    const error = await mismatch(model, 'hi');
    expect(error.code).toBe('REPLAY_MISMATCH');
    expect(error.message).toBe(
      `Recording ${base.key} has no response_done event. Record it again.`,
    );
  });
});

describe('ReplayModel mismatches', () => {
  it('name the cassette, the key, the fix, and diff against the closest recording', async () => {
    const model = new ReplayModel(
      cassetteOf(
        recorded('write a poem about the sea', 'p'),
        recorded('a completely different ask', 'q'),
      ),
    );
    const error = await mismatch(model, 'write a poem about the sky');
    const key = requestKey(normalizeRequest(request('write a poem about the sky')));
    expect(error.code).toBe('REPLAY_MISMATCH');
    expect(error.message).toContain(`cassette ${path.resolve('/nonexistent/replay.json')}`);
    expect(error.message).toContain(`(key ${key})`);
    expect(error.message).toContain('-      "text": "write a poem about the sea"');
    expect(error.message).toContain('+      "text": "write a poem about the sky"');
    expect(error.message).not.toContain('a completely different ask');
    expect(error.message).toContain('COLLOQUY_RECORD=');
  });

  it('show a changed system prompt in the diff', async () => {
    const model = new ReplayModel(cassetteOf(recorded('hi', 'x')));
    const error = await model
      .getResponse(request('hi', 'You are verbose.'))
      .catch((caught: Error) => caught);
    expect((error as Error).message).toContain('-  "system": "You are terse."');
    expect((error as Error).message).toContain('+  "system": "You are verbose."');
  });

  it('compare with recordings of the preferred label first', async () => {
    const near = recorded('hello there', 'n', { label: 'other' });
    const far = recorded('something else entirely', 'f', { label: 'mine' });
    const model = new ReplayModel(cassetteOf(near, far), { label: 'mine' });
    const error = await mismatch(model, 'hello there!');
    expect(error.message).toContain(`recorded ${far.key} (mine)`);
    const anyLabel = new ReplayModel(cassetteOf(near, far), { label: 'absent' });
    expect((await mismatch(anyLabel, 'hello there!')).message).toContain(
      `recorded ${near.key} (other)`,
    );
  });

  it('say so when the cassette is empty', async () => {
    const error = await mismatch(new ReplayModel(cassetteOf()), 'hi');
    expect(error.message).toContain('(the cassette has no interactions)');
  });

  it('fail streamed calls the same way', async () => {
    const model = new ReplayModel(cassetteOf(recorded('hi', 'x')));
    await expect(collect(model.getStreamedResponse(request('bye')))).rejects.toMatchObject({
      code: 'REPLAY_MISMATCH',
    });
  });
});
