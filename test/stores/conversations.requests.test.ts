import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationsStore } from '../../src/stores/conversations.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { items } from '../../src/testing/conformance/helpers.js';
import { ConversationsFake, type FakeRequest } from '../support/conversationsFake.js';

let fake: ConversationsFake;
let store: ConversationsStore;
beforeAll(async () => {
  fake = await new ConversationsFake().start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  store = new ConversationsStore({ baseURL: fake.baseURL, index: new MemoryStore() });
  fake.take();
});

/** `METHOD route` of each logged request, ids replaced by `{id}`. */
const routes = (log: FakeRequest[]): string[] =>
  log.map((r) => `${r.method} ${r.path.replace(/(conv|msg|fc|fco)_[0-9a-f]+/g, '{id}')}`);

describe('ConversationsStore requests (measured on the fake)', () => {
  it('first append: create + one add per 20 items; later appends: one add per 20 items', async () => {
    await store.append('t', items('a', 3), { expectedVersion: 0 });
    expect(routes(fake.take())).toEqual([
      'POST /v1/conversations',
      'POST /v1/conversations/{id}/items',
    ]);
    await store.append('t', items('b', 45), { expectedVersion: 3 });
    const log = fake.take();
    expect(routes(log)).toEqual(Array(3).fill('POST /v1/conversations/{id}/items'));
    expect(log.map((r) => r.items)).toEqual([20, 20, 5]);
    await store.append('t', items('c', 1), { expectedVersion: 48 });
    expect(fake.take()).toHaveLength(1);
    // Version checks, metadata, listing and checkpoints never reach the service.
    await store.append('t', [], { expectedVersion: 49 });
    await store.setMetadata('t', { step: 1 });
    await store.getThread('t');
    await store.listThreads();
    expect(fake.take()).toEqual([]);
  });

  it('load: one list request per 100 items, from the position asked for', async () => {
    await store.append('t', items('a', 20), { expectedVersion: 0 });
    for (let v = 20; v < 250; v += 20)
      await store.append('t', items('a', 20, v), { expectedVersion: v });
    fake.take();
    expect(await store.readItems('t')).toHaveLength(260);
    const log = fake.take();
    expect(routes(log)).toEqual(Array(3).fill('GET /v1/conversations/{id}/items'));
    expect((await store.readItems('t', { newest: 10 })).map((i) => i.id)[0]).toBe('a-250');
    expect(fake.take()).toHaveLength(1);
    expect(await store.readItems('t', { from: 300 })).toEqual([]);
    expect(fake.take()).toEqual([]);
  });

  it('fork and reset copy into a new conversation; delete is one request', async () => {
    await store.append('t', items('a', 30), { expectedVersion: 0 });
    fake.take();
    await store.fork('t', 'f', { upTo: 25 });
    expect(routes(fake.take())).toEqual([
      'POST /v1/conversations',
      'POST /v1/conversations/{id}/items',
      'POST /v1/conversations/{id}/items',
    ]);
    await store.fork('t', 'empty', { upTo: 0 });
    expect(fake.take()).toEqual([]);
    const before = await store.conversationId('t');
    const archive = (await store.rollback('t', 5))!;
    expect(routes(fake.take())).toEqual([
      'POST /v1/conversations',
      'POST /v1/conversations/{id}/items',
    ]);
    expect(await store.conversationId(archive)).toBe(before);
    expect(await store.conversationId('t')).not.toBe(before);
    const forked = (await store.conversationId('f'))!;
    await store.deleteThread('f');
    expect(routes(fake.take())).toEqual(['DELETE /v1/conversations/{id}']);
    expect(fake.conversations.has(forked)).toBe(false);
    expect(fake.conversations.has(before!)).toBe(true);
  });
});
