import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationsStore } from '../../src/stores/conversations.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ConversationsFake } from '../support/conversationsFake.js';

let fake: ConversationsFake;
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-conversations-'));
beforeAll(async () => {
  fake = await new ConversationsFake().start();
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

const meta = {
  agent: 'Planner',
  callerAgent: null,
  runId: 'run-1',
  parentRunId: null,
  createdAt: '2026-01-02T03:04:05.678Z',
};
const turn: ThreadItem[] = [
  { id: 'u', item: { role: 'user', content: 'Plan a trip ✈️' }, meta },
  {
    id: 'call',
    item: {
      type: 'function_call',
      callId: 'c1',
      name: 'lookup',
      arguments: '{"city":"Oslo"}',
      status: 'completed',
      providerData: { z: 1, a: [null, 2.5] },
    },
    meta,
  },
  {
    id: 'result',
    item: {
      type: 'function_call_result',
      callId: 'c1',
      name: 'lookup',
      status: 'completed',
      output: { type: 'text', text: 'sunny' },
    },
    meta,
  },
  { id: 'why', item: { type: 'reasoning', content: [{ type: 'input_text', text: 'think' }] } },
  {
    id: 'answer',
    item: {
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Go.' }],
    },
    meta,
  },
];

describe('ConversationsStore items', () => {
  it('writes native items the service normalises, and reads back the exact JSON', async () => {
    const store = new ConversationsStore({ baseURL: fake.baseURL, index: new MemoryStore() });
    await store.append('t', turn, { expectedVersion: 0, chatId: 'c' });
    const service = fake.conversations.get((await store.conversationId('t'))!)!;
    expect(service.metadata).toEqual({ colloquy_thread: 't', colloquy_chat: 'c' });
    expect(service.items).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: 'Plan a trip ✈️' }],
      },
      expect.objectContaining({
        type: 'function_call',
        call_id: 'c1',
        arguments: '{"city":"Oslo"}',
      }),
      expect.objectContaining({ type: 'function_call_output', call_id: 'c1', output: 'sunny' }),
      expect.objectContaining({
        role: 'developer',
        content: [{ type: 'input_text', text: '[reasoning why kept by Colloquy]' }],
      }),
      expect.objectContaining({
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Go.', annotations: [] }],
      }),
    ]);
    const back = await store.readItems('t');
    expect(back).toStrictEqual(turn);
    expect(JSON.stringify(back)).toBe(JSON.stringify(turn));
  });

  it('rebuilds a thread from its conversation when the index is lost (lossy: service ids, no meta)', async () => {
    const first = new ConversationsStore({ baseURL: fake.baseURL, index: new MemoryStore() });
    await first.append('chat-1__Coordinator__USER', turn, { expectedVersion: 0, chatId: 'chat-1' });
    const id = (await first.conversationId('chat-1__Coordinator__USER'))!;
    const fresh = new ConversationsStore({ baseURL: fake.baseURL, index: new MemoryStore() });
    const record = await fresh.adoptConversation(id);
    expect(record).toMatchObject({
      threadId: 'chat-1__Coordinator__USER',
      chatId: 'chat-1',
      version: 5,
    });
    const adopted = await fresh.readItems(record.threadId);
    expect(adopted.map((i) => i.item)).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Plan a trip ✈️' }] },
      {
        type: 'function_call',
        callId: 'c1',
        name: 'lookup',
        arguments: '{"city":"Oslo"}',
        status: 'completed',
      },
      expect.objectContaining({
        type: 'function_call_result',
        callId: 'c1',
        output: { type: 'text', text: 'sunny' },
      }),
      {
        role: 'developer',
        content: [{ type: 'input_text', text: '[reasoning why kept by Colloquy]' }],
      },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Go.' }] },
    ]);
    expect(adopted.every((i) => i.meta === undefined && /^(msg|fc|fco)_/.test(i.id))).toBe(true);
    expect(await fresh.append(record.threadId, [turn[0]!], { expectedVersion: 5 })).toBe(6);
    expect(fake.conversations.get(id)!.items).toHaveLength(6);
  });

  it('keeps its index in SQLite by default: a second store (process) continues the thread', async () => {
    const env = { COLLOQUY_DB: path.join(dir, 'colloquy.db') };
    const one = new ConversationsStore({ baseURL: fake.baseURL, env });
    await one.append('t', turn.slice(0, 2), { expectedVersion: 0 });
    await one.close();
    const two = new ConversationsStore({ baseURL: fake.baseURL, env });
    expect(two.index).toBeInstanceOf(SqliteStore);
    expect((two.index as SqliteStore).path).toMatch(/conversations-[0-9a-f]{10}\.db$/);
    expect(await two.append('t', turn.slice(2), { expectedVersion: 2 })).toBe(5);
    expect(await two.readItems('t')).toStrictEqual(turn);
    expect(fake.conversations.get((await two.conversationId('t'))!)!.items).toHaveLength(5);
    await two.close();
  });
});
