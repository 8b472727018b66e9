/**
 * A non-streamed `/v1/chat/completions` or `/v1/responses` call is aborted when its client goes
 * away (on Node).
 */
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

const routes = [
  {
    path: '/v1/chat/completions',
    body: (chat: string) => ({
      model: 'gated',
      user: chat,
      messages: [{ role: 'user', content: 'go' }],
    }),
  },
  {
    path: '/v1/responses',
    body: (chat: string) => ({ model: 'gated', input: 'go', user: chat }),
  },
];

describe.each(routes)(
  'POST $path (not streamed) and a client that disconnects',
  ({ path, body }) => {
    it('aborts the call: the abort reaches the model and no further model call follows', async () => {
      const chat = `gone-${path.replaceAll('/', '-')}`;
      const model = new GatedModel(new ScriptedModel(['done', 'again'], { name: 'solo' }));
      const agent = new Agent({ name: 'Solo', instructions: 'answer', model });
      const agency = new Agency({
        name: 'gated',
        entryPoints: [agent],
        threads: new ThreadManager({ store: new MemoryStore() }),
      });
      const server = await listen({ agencies: [agency], demo: false });
      const client = new AbortController();
      const pending = post(`${server.url}${path}`, body(chat), {}, client.signal).catch(
        (e: Error) => e,
      );
      await within(model.called.promise, 5000, 'the model call');
      client.abort();
      await within(model.sawAbort.promise, 5000, 'the abort reaching the model');
      model.release.resolve();
      expect(await pending).toBeInstanceOf(Error);
      await agency.checkpoint(chat);
      expect(model.calls).toBe(1);
    });
  },
);
