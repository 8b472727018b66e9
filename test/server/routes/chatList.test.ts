import { describe, expect, it, vi } from 'vitest';
import { summarizeChats } from '../../../src/server/routes/chatList.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import type { ThreadRecord } from '../../../src/stores/types.js';
import { echoAgency, json, listen, post } from '../helpers.js';

const record = (
  threadId: string,
  chatId: string | null,
  at: string,
  extra: Partial<ThreadRecord> = {},
): ThreadRecord => ({
  threadId,
  chatId,
  version: 2,
  metadata: {},
  forkedFrom: null,
  createdAt: at,
  updatedAt: at,
  ...extra,
});

describe('summarizeChats', () => {
  it('groups threads by chat, newest first, leaving out archives, workflows and chat-less threads', () => {
    const chats = summarizeChats([
      record('a__X__USER', 'a', '2026-01-01T00:00:01Z'),
      record('a__X__Y', 'a', '2026-01-01T00:00:03Z', { version: 4 }),
      record('a__X__USER~reset~1', 'a', '2026-01-01T00:00:09Z'),
      record('b__X__USER', 'b', '2026-01-01T00:00:02Z'),
      record('run1::main', 'run1', '2026-01-01T00:00:05Z', { metadata: { kind: 'workflow' } }),
      record('loose', null, '2026-01-01T00:00:06Z'),
    ]);
    expect(chats).toEqual([
      {
        chatId: 'a',
        threads: 2,
        items: 6,
        createdAt: '2026-01-01T00:00:01Z',
        updatedAt: '2026-01-01T00:00:03Z',
      },
      {
        chatId: 'b',
        threads: 1,
        items: 2,
        createdAt: '2026-01-01T00:00:02Z',
        updatedAt: '2026-01-01T00:00:02Z',
      },
    ]);
  });
});

describe('GET /chats', () => {
  it("lists an agency's chats", async () => {
    const server = await listen({ agencies: [echoAgency()] });
    await post(`${server.url}/agencies/echo/responses`, { message: 'one', chatId: 'c1' });
    await post(`${server.url}/agencies/echo/responses`, { message: 'two', chatId: 'c2' });
    const res = await fetch(`${server.url}/chats?agency=echo`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.agency).toBe('echo');
    expect(body.chats.map((c: { chatId: string }) => c.chatId).sort()).toEqual(['c1', 'c2']);
    expect(body.chats[0].threads).toBe(2);
    const limited = await json(await fetch(`${server.url}/chats?agency=echo&limit=1`));
    expect(limited.chats).toHaveLength(1);
  });

  it('titles chats by their first message, pages with a cursor until every chat is listed, searches and deletes', async () => {
    const server = await listen({ agencies: [echoAgency()] });
    for (let i = 0; i < 5; i += 1)
      await post(`${server.url}/agencies/echo/responses`, {
        message: `topic ${i}`,
        chatId: `c${i}`,
      });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await json(
        await fetch(`${server.url}/chats?agency=echo&limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      pages += 1;
      seen.push(...page.chats.map((c: { chatId: string }) => c.chatId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    const found = await json(await fetch(`${server.url}/chats?agency=echo&q=TOPIC%203`));
    expect(found.chats.map((c: { chatId: string; title: string }) => [c.chatId, c.title])).toEqual([
      ['c3', 'topic 3'],
    ]);
    const deleted = await fetch(`${server.url}/chats/c3?agency=echo`, { method: 'DELETE' });
    expect((await json(deleted)).deleted).toBeGreaterThan(0);
    const after = await json(await fetch(`${server.url}/chats?agency=echo&q=topic%203`));
    expect(after.chats).toEqual([]);
  });

  it('pages through chats saved in the same millisecond, each chat once', async () => {
    const store = new MemoryStore();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-01-01T00:00:00Z')); // every chat: the same updatedAt
      // Thread ids that sort the other way round from their chat ids, as a store may list them.
      for (const [n, chatId] of ['c3', 'c1', 'c5', 'c2', 'c4', 'c0'].entries()) {
        await store.append(
          `t${9 - Number(chatId.slice(1))}x${n}__Front__USER`,
          [{ id: 'i', item: { role: 'user', content: `topic ${chatId}` } }],
          { expectedVersion: 0, chatId },
        );
      }
    } finally {
      vi.useRealTimers();
    }
    const server = await listen({ agencies: [echoAgency('echo', store)] });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await json(
        await fetch(`${server.url}/chats?agency=echo&limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      seen.push(...page.chats.map((c: { chatId: string }) => c.chatId));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 20);
    // Ties in time are ordered by chat id, the order the cursor pages through.
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('needs an agency name that is served', async () => {
    const server = await listen({ agencies: [echoAgency()] });
    const missing = await fetch(`${server.url}/chats`);
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.path).toBe('agency');
    expect((await fetch(`${server.url}/chats?agency=nope`)).status).toBe(404);
  });
});
