/**
 * A coordinator that delegates to a writer, who asks an editor for a pass: three agents that may
 * message only along the two declared flows, every pair with its own thread. Runs offline on
 * scripted models; swap `model` for a model name (e.g. 'gpt-4.1-mini') to use a real one.
 *
 *   npx tsx examples/agency/delegation.ts        (runs the two calls below)
 *   npx colloquy chat examples/agency/delegation.ts   (talk to it in the terminal)
 *
 * In your own project, import these from the package ('colloquy') instead of the source tree.
 */
import { pathToFileURL } from 'node:url';
import { Agency, Agent } from '../../src/index.js';
import { ScriptedModel, lastUserText, toolOutputsSinceUser } from '../../src/models.js';

const coordinator = new Agent({
  name: 'Coordinator',
  instructions: 'Delegate writing to the Writer and return its text to the user.',
  model: new ScriptedModel((request) => {
    const [draft] = toolOutputsSinceUser(request);
    if (draft === undefined) {
      return {
        tool: 'send_message',
        args: { recipient: 'Writer', message: lastUserText(request) },
      };
    }
    return `From the team: ${draft}`;
  }),
});

const writer = new Agent({
  name: 'Writer',
  description: 'Writes one-line drafts.',
  instructions: 'Write a one-line draft, have the Editor polish it, answer with the polished line.',
  model: new ScriptedModel((request) => {
    const [polished] = toolOutputsSinceUser(request);
    if (polished === undefined) {
      const draft = `a draft about ${lastUserText(request).toLowerCase()}`;
      return { tool: 'send_message', args: { recipient: 'Editor', message: draft } };
    }
    return polished;
  }),
});

const editor = new Agent({
  name: 'Editor',
  description: 'Polishes drafts.',
  instructions: 'Return the draft polished.',
  model: new ScriptedModel(
    (request) => `“${lastUserText(request).replace(/^a draft about /, '')}”, polished.`,
  ),
});

/** The agency; `colloquy chat` and `colloquy serve` load this export. */
export const agency = new Agency({
  name: 'delegation',
  entryPoints: [coordinator],
  communicationFlows: [
    [coordinator, writer],
    [writer, editor],
  ],
});

async function main(): Promise<void> {
  const result = await agency.getResponse('Tides', { chatId: 'example' });
  console.log(result.finalOutput);
  console.log(`model calls: ${result.usage.requests}, tokens: ${result.usage.totalTokens}`);
  for (const { agent, callerAgent, depth, item } of result.newItems) {
    console.log(
      `${'  '.repeat(depth)}${agent} (called by ${callerAgent ?? 'user'}): ${item.type ?? 'message'}`,
    );
  }

  // Streaming shows nested agents' events too, each tagged with its agent and caller.
  for await (const event of agency.getResponseStream('Moons', { chatId: 'example' })) {
    if (event.type === 'agent_run_started') {
      console.log(
        `stream: ${event.agent} started (caller: ${event.callerAgent ?? 'user'}, depth ${event.depth})`,
      );
    }
    if (event.type === 'run_completed')
      console.log(`stream: done → ${String(event.result.finalOutput)}`);
  }
}

// Run the demo calls only when this file is run directly, not when a CLI imports it. (No
// top-level await, so the file also loads as CommonJS in a project without "type": "module".)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
