/**
 * The agency of the what-if tests: Coordinator asks Writer, then answers with what Writer said;
 * Writer's answer follows its instructions ("brief" makes it one word), so a changed instruction
 * shows in every later step. Both run on scripted models whose calls the tests count.
 */
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { lastUserText, toolOutputsSinceUser } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import type { ThreadStore } from '../../../src/stores/types.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';

/** Builds the agency (on `store`, default a new memory store) and its two scripted models. */
export function poemsAgency(store: ThreadStore = new MemoryStore()) {
  const coordinatorModel = new ScriptedModel(
    (request) => {
      const outputs = toolOutputsSinceUser(request);
      if (outputs.length === 0)
        return {
          tool: 'send_message',
          args: {
            recipient: 'Writer',
            message: `Write: ${lastUserText(request)}`,
            additionalInstructions: null,
          },
        };
      return `Here it is: ${outputs[0]}`;
    },
    { name: 'coordinator' },
  );
  const writerModel = new ScriptedModel(
    (request) => {
      const brief = (request.systemInstructions ?? '').includes('brief');
      const topic = lastUserText(request).replace(/^Write: /, '');
      return brief
        ? { text: `${topic}.`, usage: { inputTokens: 7, outputTokens: 2 } }
        : {
            text: `A long poem about ${topic}, verse after verse.`,
            usage: { inputTokens: 20, outputTokens: 30 },
          };
    },
    { name: 'writer' },
  );
  const coordinator = new Agent({
    name: 'Coordinator',
    instructions: 'Delegate writing.',
    model: coordinatorModel,
  });
  const writer = new Agent({ name: 'Writer', instructions: 'Write poems.', model: writerModel });
  const agency = new Agency({
    name: 'poems',
    entryPoints: [coordinator],
    communicationFlows: [[coordinator, writer]],
    threads: new ThreadManager({ store }),
  });
  return { agency, coordinatorModel, writerModel };
}
