import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCase } from '../../src/evals/capture.js';
import { loadDataset } from '../../src/evals/dataset.js';
import { runEval } from '../../src/evals/run.js';
import { demoTarget, recordedDemoChat, tempDir } from './helpers.js';

describe('captureCase', () => {
  it('turns a recorded chat into a case that replays to the same answer', async () => {
    const dir = await tempDir();
    const chat = await recordedDemoChat(dir, ['Write a short brief about tidal energy.']);
    const out = path.join(dir, 'cases.jsonl');
    const captured = await captureCase({
      store: chat.store,
      chatId: chat.chatId,
      recording: chat.recording,
      out,
    });
    expect(captured.interactions).toBe(7);
    expect(captured.case.expected).toBe(chat.answers[0]);
    const dataset = await loadDataset(out);
    expect(dataset.cases).toHaveLength(1);
    expect(dataset.cases[0]!.cassette).toMatch(/^cases\.cassettes\/.+\.cassette\.json$/);
    const results = await runEval({ dataset: out, target: demoTarget(), resultsDir: false });
    expect(results.cases[0]).toMatchObject({ mode: 'replay', mean: 1, passed: true });
    expect(results.cases[0]!.runs[0]!.output).toBe(chat.answers[0]);
  });

  it('keeps every earlier turn as input, so a later turn replays with its history', async () => {
    const dir = await tempDir();
    const chat = await recordedDemoChat(dir, ['Write about tides.', 'Now write about wind.']);
    const out = path.join(dir, 'cases.jsonl');
    const captured = await captureCase({
      store: chat.store,
      chatId: chat.chatId,
      recording: chat.recording,
      out,
    });
    expect(captured.case.input).toEqual(['Write about tides.', 'Now write about wind.']);
    expect(captured.interactions).toBe(14);
    const results = await runEval({ dataset: out, target: demoTarget(), resultsDir: false });
    expect(results.cases[0]!.runs[0]!.output).toBe(chat.answers[1]);
    expect(results.passed).toBe(true);
  });

  it('takes only the model calls of its chat from a recording shared by several chats', async () => {
    const dir = await tempDir();
    const first = await recordedDemoChat(dir, ['Write about tides.']);
    const shared = await readFile(first.recording, 'utf8');
    const second = await recordedDemoChat(dir, ['Write about geothermal power.']);
    // The process-wide recording now holds both chats' calls.
    const both = JSON.parse(await readFile(second.recording, 'utf8'));
    both.interactions.unshift(...JSON.parse(shared).interactions);
    await writeFile(second.recording, JSON.stringify(both));
    const out = path.join(dir, 'cases.jsonl');
    const captured = await captureCase({
      store: second.store,
      chatId: second.chatId,
      recording: second.recording,
      out,
    });
    expect(captured.interactions).toBe(7);
    const cassette = JSON.parse(await readFile(captured.cassette, 'utf8'));
    expect(JSON.stringify(cassette)).not.toContain('tides');
  });

  it('says what to turn on when the chat was not recorded', async () => {
    const dir = await tempDir();
    const chat = await recordedDemoChat(dir, ['Write about tides.']);
    const out = path.join(dir, 'cases.jsonl');
    await expect(
      captureCase({ store: chat.store, chatId: chat.chatId, out, env: {} }),
    ).rejects.toThrow(/no recording was given.*COLLOQUY_RECORD=FILE.*--recording FILE/s);
    const other = await recordedDemoChat(await tempDir(), ['Write about wind.']);
    await expect(
      captureCase({ store: chat.store, chatId: chat.chatId, out, recording: other.recording }),
    ).rejects.toThrow(/7 of 7 model outputs .* are not in the recording/);
  });

  it('names a chat that does not exist', async () => {
    const dir = await tempDir();
    const chat = await recordedDemoChat(dir, ['Write about tides.']);
    await expect(
      captureCase({
        store: chat.store,
        chatId: 'chat_nope',
        recording: chat.recording,
        out: path.join(dir, 'x.jsonl'),
      }),
    ).rejects.toThrow(/no chat "chat_nope" in the memory store/);
  });
});

describe('captureCase --trace', () => {
  it('ends the case at the turn of a trace, and refuses a trace of another chat', async () => {
    const { traceStoreFor } = await import('../../src/stores/traceStores.js');
    const { flushTracing } = await import('../../src/tracing/setup.js');
    const dir = await tempDir();
    const chat = await recordedDemoChat(dir, ['Write about tides.', 'Now write about wind.']);
    await flushTracing();
    const traces = await traceStoreFor(chat.store);
    const [newest, oldest] = await traces.listTraces({ chatId: chat.chatId });
    expect(newest && oldest).toBeTruthy();
    const out = path.join(dir, 'cases.jsonl');
    const first = await captureCase({
      store: chat.store,
      traces,
      chatId: chat.chatId,
      traceId: oldest!.traceId,
      recording: chat.recording,
      out,
    });
    expect(first.case).toMatchObject({
      input: 'Write about tides.',
      expected: chat.answers[0],
      source: { traceId: oldest!.traceId },
    });
    expect(first.interactions).toBe(7);
    const other = await recordedDemoChat(dir, ['Write about rain.']);
    await flushTracing();
    const [foreign] = await (await traceStoreFor(other.store)).listTraces({ chatId: other.chatId });
    await traces.saveTrace((await (await traceStoreFor(other.store)).getTrace(foreign!.traceId))!);
    await expect(
      captureCase({
        store: chat.store,
        traces,
        chatId: chat.chatId,
        traceId: foreign!.traceId,
        recording: chat.recording,
        out,
      }),
    ).rejects.toThrow(
      `Trace ${foreign!.traceId} belongs to chat ${other.chatId}, not ${chat.chatId}`,
    );
    await expect(
      captureCase({
        store: chat.store,
        traces,
        chatId: chat.chatId,
        traceId: 'trace_nope',
        recording: chat.recording,
        out,
      }),
    ).rejects.toThrow(/There is no trace "trace_nope"/);
  });
});

describe('captureCase of a streamed chat', () => {
  it('matches streamed recordings (their response_done output) and replays them', async () => {
    const { createDemoAgency } = await import('../../src/demo/demoAgency.js');
    const { RecordingModel } = await import('../../src/models/recordingModel.js');
    const { MemoryStore } = await import('../../src/stores/memory.js');
    const { ThreadManager } = await import('../../src/threads/threadManager.js');
    const { demoModels } = await import('./helpers.js');
    const dir = await tempDir();
    const recording = path.join(dir, 'streamed.cassette.json');
    const own = demoModels();
    const store = new MemoryStore();
    const agency = createDemoAgency({
      threads: new ThreadManager({ store }),
      model: (agent) => new RecordingModel(own(agent), { cassette: recording }),
    });
    let answer: unknown;
    for await (const event of agency.getResponseStream('Write a short brief about wind power.'))
      if (event.type === 'run_completed') answer = event.result.finalOutput;
    const recorded = JSON.parse(await readFile(recording, 'utf8'));
    expect(recorded.interactions.every((i: { stream: boolean }) => i.stream)).toBe(true);
    const out = path.join(dir, 'cases.jsonl');
    const captured = await captureCase({ store, chatId: agency.chatId, recording, out });
    expect(captured).toMatchObject({ interactions: 7, case: { expected: answer } });
    const results = await runEval({ dataset: out, target: demoTarget(), resultsDir: false });
    expect(results.cases[0]).toMatchObject({ mode: 'replay', mean: 1 });
  });
});
