import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplayModel } from '../../src/models/replayModel.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel, profileModelSettings } from '../../src/models/resolve.js';
import { runDemoFlow } from './demoFlow.js';

const cassette = path.resolve('test/fixtures/cassettes/demo.openai-compatible.cassette.json');
const expected =
  'The Writer answered:\nQuiet the harbour at dawn waits,\nloopback packets come and go,\nreplies without end.';

describe('ReplayModel', () => {
  it('replays the recorded two-agent demo offline through the replay provider', async () => {
    const registry = createProfileRegistry([
      {
        source: 'test',
        baseDir: path.resolve('test/fixtures/cassettes'),
        profiles: {
          local: {
            provider: 'replay',
            model: 'fake-gpt',
            cassette: 'demo.openai-compatible.cassette.json',
          },
        },
      },
    ]);
    const options = { env: {}, record: false as const };
    const output = await runDemoFlow(
      {
        coordinator: createModel('local', registry, options),
        writer: createModel('local', registry, options),
        settings: profileModelSettings('local', registry),
      },
      'the harbour at dawn',
    );
    expect(output).toBe(expected);
  });

  it('answers a non-streamed call from a streamed recording', async () => {
    const output = await runDemoFlow(
      { coordinator: new ReplayModel(cassette), writer: new ReplayModel(cassette) },
      'the harbour at dawn',
    );
    expect(output).toBe(expected);
  });

  it('fails with REPLAY_MISMATCH and a diff when the request differs', async () => {
    const run = runDemoFlow(
      { coordinator: new ReplayModel(cassette), writer: new ReplayModel(cassette) },
      'the harbour at dusk',
    );
    const error = (await run.catch((caught: unknown) => caught)) as {
      code?: string;
      message: string;
      cause?: { code?: string; message: string };
    };
    const replayError = error.code === 'REPLAY_MISMATCH' ? error : error.cause;
    expect(replayError?.code).toBe('REPLAY_MISMATCH');
    expect(replayError?.message).toContain('-      "text": "the harbour at dawn"');
    expect(replayError?.message).toContain('+      "text": "the harbour at dusk"');
  });

  it('rejects a file that is not a cassette', () => {
    expect(() => new ReplayModel(path.resolve('package.json'))).toThrow(
      /is not a colloquy-cassette version 1 file/,
    );
  });
});
