/**
 * A "production" chat with the demo agency, every model call recorded: what a deployment run with
 * COLLOQUY_RECORD=FILE leaves behind (the chat in the store, the model calls in the cassette),
 * made offline. Prints the chat id, for `colloquy eval capture`.
 *
 *   npx tsx examples/evals/recordDemoChat.ts --store .colloquy/colloquy.db \
 *     --recording .colloquy/production.cassette.json "Write a short brief about tidal energy."
 *
 * In your own project, import these from the package ('colloquy') instead of the source tree.
 */
import { parseArgs } from 'node:util';
import type { Model } from '@openai/agents-core';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { RecordingModel } from '../../src/models/recordingModel.js';
import { openStore } from '../../src/stores/openStore.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { flushTracing } from '../../src/tracing/setup.js';

const { values, positionals } = parseArgs({
  options: { store: { type: 'string' }, recording: { type: 'string' } },
  allowPositionals: true,
});
if (!values.recording)
  throw new Error('Pass --recording FILE: where the model calls are recorded.');
const recording = values.recording;

// The demo's own offline models, each wrapped so that its calls are recorded.
const own = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
const store = await openStore(values.store);
const agency = createDemoAgency({
  threads: new ThreadManager({ store }),
  model: (agent) =>
    new RecordingModel(own.agents.get(agent)!.model as Model, {
      cassette: recording,
      label: agent,
    }),
});
const turns = positionals.length > 0 ? positionals : ['Write a short brief about tidal energy.'];
for (const turn of turns) await agency.getResponse(turn);
await flushTracing();
await store.close();
process.stdout.write(`${agency.chatId}\n`);
