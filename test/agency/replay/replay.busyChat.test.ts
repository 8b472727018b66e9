// A replay reads and forks a chat between its calls: it waits for a call running on the chat
// (here with a short chatWaitMs, so that waiting too long fails with CHAT_BUSY instead of hanging).
import { describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { replayChat } from '../../../src/agency/replay/replay.js';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { threadIdFor } from '../../../src/threads/threadId.js';
import { deferred, GatedModel } from '../helpers.js';

describe('replayChat on a busy chat', () => {
  it('waits for the running call, then forks the chat as that call left it', async () => {
    const open = deferred();
    const reached = deferred();
    const model = new GatedModel(
      new ScriptedModel((request) => `echo ${lastUserText(request)}`),
      async (index) => {
        if (index !== 1) return;
        reached.resolve();
        await open.promise;
      },
    );
    const agency = new Agency({
      entryPoints: [new Agent({ name: 'A', instructions: 'Echo.', model })],
      threads: new ThreadManager({ store: new MemoryStore() }),
      chatWaitMs: 20,
    });
    await agency.getResponse('one', { chatId: 'busy' });
    const [first] = await agency.threads.store.readItems(threadIdFor('busy', 'A'));
    const running = agency.getResponse('two', { chatId: 'busy' });
    await reached.promise;
    // The chat is busy for longer than chatWaitMs: the replay does not read it meanwhile.
    await expect(
      replayChat(agency, { chatId: 'busy', at: first!.id, message: 'uno' }),
    ).rejects.toMatchObject({ code: 'CHAT_BUSY' });
    open.resolve();
    await running;
    const result = await replayChat(agency, { chatId: 'busy', at: first!.id, message: 'uno' });
    expect(result.finalOutput).toBe('echo uno');
    // The original has both turns; the fork only the replayed first one.
    expect(await agency.threads.store.readItems(threadIdFor('busy', 'A'))).toHaveLength(4);
    expect(await agency.threads.store.readItems(threadIdFor(result.chatId, 'A'))).toHaveLength(2);
    await agency.close();
  });
});
