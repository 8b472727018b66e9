// The demo's conversation, step by step: who asks whom what, derived from the user's message.
import { describe, expect, it } from 'vitest';
import type { TaggedItem } from '../../src/agency/result.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

interface Step {
  from: string;
  to: string;
  message: string;
  depth: number;
}

function delegations(items: readonly TaggedItem[]): Step[] {
  return items.flatMap((tagged) => {
    const item = tagged.item as { type?: string; name?: string; arguments?: string };
    if (item.type !== 'function_call' || item.name !== 'send_message') return [];
    const args = JSON.parse(item.arguments!) as { recipient: string; message: string };
    return [{ from: tagged.agent, to: args.recipient, message: args.message, depth: tagged.depth }];
  });
}

async function run(message: string) {
  const agency = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
  return agency.getResponse(message, { chatId: 'flow' });
}

describe('the demo flow', () => {
  it('asks the researcher, then the writer, who asks the editor', async () => {
    const result = await run('Write a short brief about coral reefs.');
    const steps = delegations(result.newItems);
    expect(steps.map((s) => `${s.from}->${s.to}@${s.depth}`)).toEqual([
      'Coordinator->Researcher@0',
      'Coordinator->Writer@0',
      'Writer->Editor@1',
    ]);
    expect(steps[0]!.message).toBe('Find three key facts about coral reefs.');
    expect(steps[1]!.message).toBe(
      'Write a short brief on coral reefs using these facts: (1) coral reefs is predictable years ahead; ' +
        '(2) coral reefs needs sites with strong currents; (3) coral reefs installations last for decades.',
    );
    expect(
      steps[2]!.message.startsWith(
        'Please tighten this draft: It is well known that (1) coral reefs',
      ),
    ).toBe(true);
  });

  it("answers with the editor's tightened text", async () => {
    const result = await run('Write a short brief about coral reefs.');
    expect(result.finalOutput).toBe(
      'Here is your brief on coral reefs:\ncoral reefs is predictable years ahead. ' +
        'coral reefs needs sites with strong currents. coral reefs installations last for decades.',
    );
  });

  it('tags every nested answer with its caller', async () => {
    const result = await run('A brief on kelp.');
    const answers = result.newItems.filter(
      (tagged) => (tagged.item as { role?: string }).role === 'assistant',
    );
    expect(answers.map((tagged) => [tagged.agent, tagged.callerAgent])).toEqual([
      ['Researcher', 'Coordinator'],
      ['Editor', 'Writer'],
      ['Writer', 'Coordinator'],
      ['Coordinator', null],
    ]);
  });
});
