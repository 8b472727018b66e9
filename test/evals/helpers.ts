/**
 * Shared helpers of the eval tests: the demo agency as a target (scripted, or on a replay
 * model), and a demo chat run with recording models into a store, as a production run with
 * COLLOQUY_RECORD would leave it.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Model } from '@openai/agents-core';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { agencyTarget, type EvalTarget } from '../../src/evals/targets.js';
import { forgetRecordingCassette } from '../../src/models/cassette.js';
import { RecordingModel } from '../../src/models/recordingModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

/** A fresh temporary directory. */
export function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'colloquy-evals-'));
}

/** The demo's own scripted model of each agent. */
export function demoModels(): (agent: string) => Model {
  const scripted = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
  return (agent) => scripted.agents.get(agent)!.model as Model;
}

/** The demo agency as an eval target: its scripted models live, or the case's replay model. */
export function demoTarget(): EvalTarget {
  return agencyTarget(
    ({ model, threads }) => createDemoAgency({ threads, ...(model ? { model: () => model } : {}) }),
    { name: 'demo' },
  );
}

/** Runs demo chat turns with every model call recorded; returns the store, chat id and recording. */
export async function recordedDemoChat<S extends ThreadStore = MemoryStore>(
  dir: string,
  turns: string[],
  store: S = new MemoryStore() as unknown as S,
): Promise<{ store: S; chatId: string; recording: string; answers: string[] }> {
  const recording = path.join(dir, 'production.cassette.json');
  forgetRecordingCassette(recording);
  const own = demoModels();
  const agency = createDemoAgency({
    threads: new ThreadManager({ store }),
    model: (agent) => new RecordingModel(own(agent), { cassette: recording, label: agent }),
  });
  const answers: string[] = [];
  for (const turn of turns) answers.push(String((await agency.getResponse(turn)).finalOutput));
  return { store, chatId: agency.chatId, recording, answers };
}
