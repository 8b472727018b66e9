import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { RecordingModel } from '../../src/models/recordingModel.js';
import { normalizeRequest, requestKey } from '../../src/models/requestKey.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

async function tempFile(): Promise<string> {
  return path.join(
    await mkdtemp(path.join(os.tmpdir(), 'colloquy-cassette-')),
    'run.cassette.json',
  );
}

describe('RecordingModel', () => {
  it('writes a versioned envelope with one interaction per call', async () => {
    const file = await tempFile();
    const model = new RecordingModel(new ScriptedModel(['hello']), {
      cassette: file,
      label: 'demo',
    });
    await new Runner({ tracingDisabled: true }).run(
      new Agent({ name: 'A', instructions: 'x', model }),
      'hi',
    );
    const data = JSON.parse(await readFile(file, 'utf8'));
    expect(data).toMatchObject({
      format: 'colloquy-cassette',
      version: 1,
      interactions: [{ label: 'demo', stream: false }],
    });
    expect(data.interactions[0].response.output[0].content[0].text).toBe('hello');
  });

  it('records every streamed event', async () => {
    const file = await tempFile();
    const model = new RecordingModel(new ScriptedModel(['a streamed reply'], { deltaSize: 4 }), {
      cassette: file,
    });
    const result = await new Runner({ tracingDisabled: true }).run(
      new Agent({ name: 'A', instructions: 'x', model }),
      'hi',
      { stream: true },
    );
    for await (const _event of result) {
      // drain
    }
    const data = JSON.parse(await readFile(file, 'utf8'));
    const types = data.interactions[0].events.map((event: { type: string }) => event.type);
    expect(types.filter((type: string) => type === 'output_text_delta')).toHaveLength(4);
    expect(types.at(-1)).toBe('response_done');
  });

  it('never writes API keys', async () => {
    const file = await tempFile();
    const secret = 'plain-secret-value-123';
    const model = new RecordingModel(
      new ScriptedModel([`key sk-proj-abcdefghijklmnopqrstuv and ${secret}`]),
      { cassette: file, secrets: [secret] },
    );
    await new Runner({ tracingDisabled: true }).run(
      new Agent({ name: 'A', instructions: 'x', model }),
      'hi',
    );
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuv');
    expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');
  });
});

describe('requestKey', () => {
  it('ignores call ids and item ids', () => {
    const request = (callId: string, id: string) => ({
      systemInstructions: 's',
      input: [
        { role: 'user', content: 'hi' },
        {
          type: 'function_call',
          id,
          callId,
          name: 'f',
          arguments: '{"b":1, "a":2}',
          status: 'completed',
        },
        {
          type: 'function_call_result',
          callId,
          name: 'f',
          status: 'completed',
          output: { type: 'text', text: 'ok' },
        },
      ] as never,
      tools: [],
      handoffs: [],
      outputType: 'text' as const,
    });
    expect(requestKey(normalizeRequest(request('call_1', 'fc_1')))).toBe(
      requestKey(normalizeRequest(request('call_999', 'fc_x'))),
    );
  });

  it('changes when the input text changes', () => {
    const base = { systemInstructions: 's', tools: [], handoffs: [], outputType: 'text' as const };
    expect(requestKey(normalizeRequest({ ...base, input: 'a' }))).not.toBe(
      requestKey(normalizeRequest({ ...base, input: 'b' })),
    );
  });
});
