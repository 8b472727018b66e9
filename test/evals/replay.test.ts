import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import editedDemo, { EDITED_INSTRUCTIONS } from '../../examples/evals/editedDemo.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { captureCase } from '../../src/evals/capture.js';
import { runEval } from '../../src/evals/run.js';
import { agencyTarget } from '../../src/evals/targets.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { recordedDemoChat, tempDir } from './helpers.js';

/** A model that fails if anything calls it: replays must never reach the agents' live models. */
const liveModel = () =>
  new ScriptedModel([{ error: 'the live model was called' }], { repeatLast: true });

async function capturedDemoCase(): Promise<{ out: string; answer: string }> {
  const dir = await tempDir();
  const chat = await recordedDemoChat(dir, ['Write a short brief about tidal energy.']);
  const out = path.join(dir, 'cases.jsonl');
  await captureCase({ store: chat.store, chatId: chat.chatId, recording: chat.recording, out });
  return { out, answer: chat.answers[0]! };
}

describe('a captured case replays offline', () => {
  let connects = 0;
  beforeEach(() => {
    connects = 0;
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(() => {
      connects += 1;
      throw new Error('network access in an offline replay');
    });
    vi.stubGlobal('fetch', () => {
      connects += 1;
      throw new Error('network access in an offline replay');
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('with no network, no key and no live model, to the same answer', async () => {
    const { out, answer } = await capturedDemoCase();
    const target = agencyTarget(({ model, threads }) =>
      createDemoAgency({ threads, model: () => model ?? liveModel() }),
    );
    const results = await runEval({ dataset: out, target, repeat: 2, resultsDir: false });
    expect(results.cases[0]).toMatchObject({ mode: 'replay', mean: 1, passed: true });
    expect(results.cases[0]!.runs.map((run) => run.output)).toEqual([answer, answer]);
    expect(results.cases[0]!.runs[0]!.modelCalls).toBe(7);
    expect(connects).toBe(0);
  });

  it('through an Agency instance too (its agents answer from the case cassette)', async () => {
    const { out, answer } = await capturedDemoCase();
    const agency = createDemoAgency({
      threads: new ThreadManager({ store: new MemoryStore() }),
      model: liveModel,
    });
    const results = await runEval({
      dataset: out,
      target: agencyTarget(agency),
      concurrency: 2,
      repeat: 2,
      resultsDir: false,
    });
    expect(results.cases[0]!.runs.map((run) => run.output)).toEqual([answer, answer]);
    expect(connects).toBe(0);
  });

  it("misses the cassette when an agent's instructions change, naming the changed lines", async () => {
    const { out } = await capturedDemoCase();
    const target = agencyTarget(editedDemo);
    const results = await runEval({ dataset: out, target, resultsDir: false });
    const [score] = results.cases[0]!.scores;
    expect(score!.mean).toBe(0);
    expect(score!.reason).toMatch(
      /^replay missed the cassette: a model request differs from every recording/,
    );
    expect(score!.reason).toContain(
      '-  "system": "Return the draft, tightened. Answer with the text only.",',
    );
    expect(score!.reason).toContain(`+  "system": "${EDITED_INSTRUCTIONS}",`);
    expect(score!.reason).toMatch(
      /Capture the case again to accept the change, or run it with --live\.$/,
    );
    expect(results.cases[0]!.runs[0]!.error).toMatch(
      /^No recording in cassette .* matches this model request/,
    );
    expect(results.passed).toBe(false);
    expect(connects).toBe(0);
  });

  it("runs live when asked, on the agents' own models", async () => {
    const { out, answer } = await capturedDemoCase();
    const results = await runEval({
      dataset: out,
      target: agencyTarget(editedDemo),
      live: true,
      resultsDir: false,
    });
    expect(results.cases[0]).toMatchObject({ mode: 'live', mean: 1 });
    expect(results.cases[0]!.runs[0]!.output).toBe(answer);
  });
});
