/** Shared set-up of the background-run tests: a gated one-agent agency, polling, reading SSE. */
import { Agency } from '../../../src/agency/agency.js';
import type { AgencyResponse } from '../../../src/agency/result.js';
import { Agent } from '../../../src/agency/agent.js';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import type { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { GatedModel, sseEvents, type SseEvent } from '../helpers.js';

/** A finished call's result: what the run-log tests record as a run's end. */
export const doneResult: AgencyResponse = {
  finalOutput: 'done',
  chatId: 'c1',
  lastAgent: 'A',
  newItems: [],
  usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
};

/** An agency `name` whose one agent answers `done: <message>` once its model's gate opens. */
export function gatedAgency(name: string, store: MemoryStore) {
  const model = new GatedModel(
    new ScriptedModel((request) => `done: ${lastUserText(request)}`, { name: 'gated' }),
  );
  const agent = new Agent({ name: 'Solo', instructions: 'Answer.', model });
  const agency = new Agency({ name, entryPoints: [agent], threads: new ThreadManager({ store }) });
  return { agency, model };
}

/** Polls `read` until `done` accepts its value (at most 500 tries, 10 ms apart). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

/** Every SSE event of a response, to its end. */
export async function readAll(response: Response): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of sseEvents(response)) out.push(event);
  return out;
}
