import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, StoreError } from '../../src/errors.js';
import {
  ConversationsStore,
  type ConversationsStoreOptions,
} from '../../src/stores/conversations.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { items } from '../../src/testing/conformance/helpers.js';
import { ConversationsFake } from '../support/conversationsFake.js';

let fake: ConversationsFake;
beforeAll(async () => {
  fake = await new ConversationsFake().start();
});
afterAll(() => fake.stop());
beforeEach(() => void fake.take());

const open = (options: Partial<ConversationsStoreOptions> = {}): ConversationsStore =>
  new ConversationsStore({ baseURL: fake.baseURL, index: new MemoryStore(), env: {}, ...options });

describe('ConversationsStore retries', () => {
  it('retries a 429 after the retry-after the service names', async () => {
    const store = open({ retryBaseMs: 1 });
    fake.throttle(2, 0.25);
    const started = Date.now();
    expect(await store.append('t', items('a', 2), { expectedVersion: 0 })).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(fake.take().map((r) => r.status)).toEqual([429, 429, 200, 200]);
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a-0', 'a-1']);
  });

  it('fails at once, writing nothing, when retry-after is beyond maxRetryWaitMs', async () => {
    const store = open({ maxRetryWaitMs: 1_000 });
    fake.throttle(1, 60);
    const started = Date.now();
    const error = await store
      .append('t', items('a', 1), { expectedVersion: 0 })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ transient: true });
    expect((error as Error).message).toMatch(/asked to wait 60 s.*raise maxRetryWaitMs/);
    expect(await store.getThread('t')).toBeNull();
  });

  it('gives up after maxRetries with the 429 in the message', async () => {
    const store = open({ maxRetries: 2, retryBaseMs: 1 });
    fake.throttle(5, 0);
    await expect(store.append('t', items('a', 1), { expectedVersion: 0 })).rejects.toThrow(
      /POST \/v1\/conversations answered 429: Rate limit reached/,
    );
    expect(fake.take()).toHaveLength(3);
    fake.throttle(0, 0);
  });

  it('retries a 5xx on a read, never on an add (the items may have been added)', async () => {
    const store = open({ retryBaseMs: 1 });
    await store.append('t', items('a', 2), { expectedVersion: 0 });
    fake.take();
    fake.failNext(1, 502);
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a-0', 'a-1']);
    expect(fake.take().map((r) => r.status)).toEqual([502, 200]);
    fake.failNext(1, 500);
    await expect(store.append('t', items('b', 1), { expectedVersion: 2 })).rejects.toThrow(
      /items answered 500/,
    );
    expect(fake.take().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 500']);
    expect(await store.append('t', items('b', 1), { expectedVersion: 2 })).toBe(3);
    fake.failNext(1, 503);
    expect(await store.append('t', items('c', 1), { expectedVersion: 3 })).toBe(4);
  });

  it('refuses thread ids reserved for its links', async () => {
    const store = open();
    await expect(
      store.append('~conversation~x', items('a', 1), { expectedVersion: 0 }),
    ).rejects.toBeInstanceOf(ConfigError);
    await expect(store.setMetadata('~conversation~x', {})).rejects.toThrow(/reserved/);
  });

  it('takes back the first chunks of an append whose later chunk fails', async () => {
    const store = open({ maxRetries: 0 });
    await store.append('t', items('a', 1), { expectedVersion: 0 });
    const conversation = fake.conversations.get((await store.conversationId('t'))!)!;
    fake.throttle(1, 0, 1); // the first chunk is added, the second refused
    await expect(store.append('t', items('b', 30), { expectedVersion: 1 })).rejects.toThrow(/429/);
    expect(conversation.items).toHaveLength(1);
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a-0']);
    expect(await store.append('t', items('b', 2), { expectedVersion: 1 })).toBe(3);
  });
});

describe('ConversationsStore and changes made outside it', () => {
  it('reports a conversation deleted at the service, and still deletes the thread', async () => {
    const store = open();
    await store.append('t', items('a', 2), { expectedVersion: 0 });
    const id = (await store.conversationId('t'))!;
    await fetch(`${fake.baseURL}/conversations/${id}`, { method: 'DELETE' });
    await expect(store.readItems('t')).rejects.toThrow(
      new RegExp(`Thread "t": its conversation ${id} .*no longer exists.*delete the thread`),
    );
    await store.deleteThread('t');
    expect(await store.getThread('t')).toBeNull();
  });

  it('reports an item deleted at the service with its position', async () => {
    const store = open();
    await store.append('t', items('a', 3), { expectedVersion: 0 });
    const conversation = fake.conversations.get((await store.conversationId('t'))!)!;
    const second = conversation.items[1]!.id;
    await fetch(`${fake.baseURL}/conversations/${conversation.id}/items/${second}`, {
      method: 'DELETE',
    });
    await expect(store.readItems('t')).rejects.toThrow(
      `no longer holds item ${second} (position 1)`,
    );
    expect((await store.readItems('t', { limit: 1 })).map((i) => i.id)).toEqual(['a-0']);
  });

  it('skips items another client added (e.g. a Responses call on the conversation)', async () => {
    const store = open();
    await store.append('t', items('a', 2), { expectedVersion: 0 });
    const id = (await store.conversationId('t'))!;
    await fetch(`${fake.baseURL}/conversations/${id}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ role: 'assistant', content: 'from elsewhere' }] }),
    });
    await store.append('t', items('a', 1, 2), { expectedVersion: 2 });
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a-0', 'a-1', 'a-2']);
    expect((await store.readItems('t', { from: 2 })).map((i) => i.id)).toEqual(['a-2']);
  });
});

describe('ConversationsStore authentication', () => {
  /** A fetch that sends every request to the fake whatever its host, keeping what was asked. */
  const redirect = (seen: { url: string; headers: Record<string, string> }[]): typeof fetch =>
    (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      seen.push({ url: url.href, headers: init!.headers as Record<string, string> });
      return fetch(`${fake.baseURL}${url.pathname.replace(/^.*\/v1/, '')}${url.search}`, init);
    }) as typeof fetch;

  it('sends OPENAI_API_KEY as a bearer and AZURE_OPENAI_API_KEY as api-key', async () => {
    await open({ env: { OPENAI_API_KEY: 'sk-o' } }).append('t', items('a', 1), {
      expectedVersion: 0,
    });
    expect(fake.take().map((r) => r.auth)).toEqual(['Bearer sk-o', 'Bearer sk-o']);
    await open({ env: { AZURE_OPENAI_API_KEY: 'az' } }).append('t', items('a', 1), {
      expectedVersion: 0,
    });
    expect(fake.take()[0]!.auth).toBe('api-key az');
    await open({ apiKey: 'given', env: { OPENAI_API_KEY: 'sk-o' } }).append('t', items('a', 1), {
      expectedVersion: 0,
    });
    expect(fake.take()[0]!.auth).toBe('Bearer given');
  });

  it('uses api-key and the base URL query on Azure hosts, and getToken for Entra ID', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const azure = open({
      baseURL: 'https://res.openai.azure.com/openai/v1?api-version=preview',
      env: { AZURE_OPENAI_API_KEY: 'az', OPENAI_API_KEY: 'sk-o' },
      fetch: redirect(seen),
    });
    await azure.append('t', items('a', 1), { expectedVersion: 0 });
    expect(seen[0]).toMatchObject({
      url: 'https://res.openai.azure.com/openai/v1/conversations?api-version=preview',
      headers: { 'api-key': 'az' },
    });
    let calls = 0;
    const entra = open({
      getToken: async () => `tok-${++calls}`,
      env: { AZURE_OPENAI_API_KEY: 'az' },
    });
    await entra.append('t', items('a', 1), { expectedVersion: 0 });
    expect(
      fake
        .take()
        .slice(-2)
        .map((r) => r.auth),
    ).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('refuses a base URL that is not a URL, naming the fix', () => {
    expect(() => open({ baseURL: 'api.openai.com' })).toThrow(ConfigError);
    expect(() => open({ baseURL: 'api.openai.com' })).toThrow(/https:\/\/api\.openai\.com\/v1/);
  });
});
