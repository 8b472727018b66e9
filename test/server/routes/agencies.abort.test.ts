import { describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { chatItems, GatedModel, listen, post, sseEvents, unmatchedCalls } from '../helpers.js';

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms),
    ),
  ]);
}

/** Lead → Worker; the worker's model waits on a promise, so the run is provably in flight. */
function build() {
  const store = new MemoryStore();
  const leadModel = new ScriptedModel(
    [
      {
        tool: 'send_message',
        args: { recipient: 'Worker', message: 'do it', additionalInstructions: null },
      },
      'lead done',
    ],
    { name: 'lead' },
  );
  const workerModel = new GatedModel(
    new ScriptedModel(['worker done', 'worker again'], { name: 'worker' }),
  );
  const lead = new Agent({ name: 'Lead', instructions: 'delegate', model: leadModel });
  const worker = new Agent({ name: 'Worker', instructions: 'work', model: workerModel });
  const agency = new Agency({
    name: 'gated',
    entryPoints: [lead],
    communicationFlows: [[lead, worker]],
    threads: new ThreadManager({ store }),
  });
  return { agency, store, leadModel, workerModel };
}

describe('a client that disconnects mid-stream with onDisconnect: "cancel"', () => {
  it('aborts the run: the model is not called again and no thread keeps a call without its result', async () => {
    const { agency, store, leadModel, workerModel } = build();
    const server = await listen({ agencies: [agency], demo: false });
    const client = new AbortController();
    const res = await post(
      `${server.url}/agencies/gated/responses/stream`,
      { message: 'go', chatId: 'gone', onDisconnect: 'cancel' },
      {},
      client.signal,
    );
    const seen: string[] = [];
    for await (const event of sseEvents(res)) {
      const data = JSON.parse(event.data);
      seen.push(`${event.event}:${data.agent ?? ''}`);
      if (event.event === 'agent_run_started' && data.agent === 'Worker') break;
    }
    await within(workerModel.called.promise, 5000, 'the worker model call');
    client.abort();

    await within(workerModel.sawAbort.promise, 5000, 'the abort reaching the worker model');
    workerModel.release.resolve();
    await agency.checkpoint('gone'); // waits until the chat's calls have settled
    expect(await server.registry.chats.agencyOf('gone')).toMatchObject({ name: 'gated' });
    // The chat's calls have settled (above): no model call can follow without a new call.
    expect(workerModel.calls).toBe(1);
    expect(leadModel.calls).toHaveLength(1);
    expect(seen).toContain('agent_run_started:Worker');
    const threads = await chatItems(store, 'gone');
    expect(threads.size).toBeGreaterThan(0);
    for (const [threadId, items] of threads)
      expect({ threadId, unmatched: unmatchedCalls(items) }).toEqual({ threadId, unmatched: [] });
    expect(threads.get('gone__Lead__USER')!.map((t) => t.item.type ?? 'message')).toEqual([
      'message',
    ]);
    expect(server.registry.runs.running).toBe(0);
  });

  it('aborts a non-streaming call too when the client goes away', async () => {
    const { agency, workerModel } = build();
    const server = await listen({ agencies: [agency], demo: false });
    const client = new AbortController();
    const pending = post(
      `${server.url}/agencies/gated/responses`,
      { message: 'go', chatId: 'gone-json' },
      {},
      client.signal,
    ).catch((e: Error) => e);
    await within(workerModel.called.promise, 5000, 'the worker model call');
    client.abort();
    await within(workerModel.sawAbort.promise, 5000, 'the abort reaching the worker model');
    workerModel.release.resolve();
    expect(await pending).toBeInstanceOf(Error);
    await agency.checkpoint('gone-json');
    expect(workerModel.calls).toBe(1);
  });
});
