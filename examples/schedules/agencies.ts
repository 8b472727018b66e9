/**
 * The agency the schedules example runs (see colloquy.yaml): a reporter on a scripted model, so
 * the example runs offline. Give the agent a model name (e.g. 'gpt-4.1-mini') for a real one.
 *
 * In your own project, import these from the package ('colloquy') instead of the source tree.
 */
import { Agency, Agent } from '../../src/index.js';
import { ScriptedModel, lastUserText } from '../../src/models.js';
import type { ThreadStore } from '../../src/stores.js';
import { ThreadManager } from '../../src/index.js';

/** Builds the agencies on the store the server or worker was given. */
export function createAgencies({ store }: { store: ThreadStore }): Agency[] {
  const reporter = new Agent({
    name: 'Reporter',
    instructions: 'Answer briefly with what changed.',
    model: new ScriptedModel(
      (request) => `Report at ${new Date().toISOString()}: nothing new (${lastUserText(request)})`,
      { name: 'reporter' },
    ),
  });
  return [
    new Agency({
      name: 'reporter',
      entryPoints: [reporter],
      threads: new ThreadManager({ store }),
    }),
  ];
}
