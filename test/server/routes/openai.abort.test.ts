/** A non-streamed `/v1/chat/completions` call is aborted when its client goes away (on Node). */
import { describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { GatedModel, listen, post } from '../helpers.js';

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms),
    ),
  ]);
}

describe('POST /v1/chat/completions (not streamed) and a client that disconnects', () => {
  it('aborts the call: the abort reaches the model and no further model call follows', async () => {
    const model = new GatedModel(new ScriptedModel(['done', 'again'], { name: 'solo' }));
    const agent = new Agent({ name: 'Solo', instructions: 'answer', model });
    const agency = new Agency({
      name: 'gated',
      entryPoints: [agent],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const server = await listen({ agencies: [agency], demo: false });
    const client = new AbortController();
    const pending = post(
      `${server.url}/v1/chat/completions`,
      { model: 'gated', user: 'gone-v1', messages: [{ role: 'user', content: 'go' }] },
      {},
      client.signal,
    ).catch((e: Error) => e);
    await within(model.called.promise, 5000, 'the model call');
    client.abort();
    await within(model.sawAbort.promise, 5000, 'the abort reaching the model');
    model.release.resolve();
    expect(await pending).toBeInstanceOf(Error);
    await agency.checkpoint('gone-v1');
    expect(model.calls).toBe(1);
  });
});
