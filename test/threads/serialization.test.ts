import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SerializationError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { checkpointChat, rollbackChat } from '../../src/threads/chatHistory.js';
import type { ThreadItem } from '../../src/stores/item.js';
import {
  CHAT_FORMAT,
  CHAT_FORMAT_VERSION,
  exportChat,
  importChat,
  parseChatEnvelope,
  type ChatEnvelope,
} from '../../src/threads/serialization.js';
import { threadIdFor } from '../../src/threads/threadId.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/chat-export/${name}`, import.meta.url), 'utf8'));

const meta = {
  agent: 'A',
  callerAgent: null,
  runId: 'run_1',
  parentRunId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const U = threadIdFor('c1', 'A');
const P = threadIdFor('c1', 'A', 'B');

/** A chat with two threads, metadata, two checkpoints and a rollback archive. */
async function sampleChat(store: ThreadStore): Promise<void> {
  const items: ThreadItem[] = [
    { id: 'a', item: { role: 'user', content: 'héllo ✓' }, meta },
    {
      id: 'b',
      item: {
        type: 'function_call',
        callId: 'k1',
        name: 'send_message',
        status: 'completed',
        arguments: '{"recipient":"B"}',
      },
      meta,
    },
    {
      id: 'c',
      item: {
        type: 'function_call_result',
        callId: 'k1',
        name: 'send_message',
        status: 'completed',
        output: { type: 'text', text: 'ok' },
      },
      meta,
    },
  ];
  await store.append(U, items, { expectedVersion: 0, chatId: 'c1' });
  await store.append(P, [{ id: 'p', item: { role: 'user', content: 'to B' } }], {
    expectedVersion: 0,
    chatId: 'c1',
  });
  await store.setMetadata(U, { topic: 'tides', nested: { n: [1, null, 'x'] } }, 'c1');
  const first = await checkpointChat(store, 'c1', 'first');
  await store.append(U, [{ id: 'd', item: { role: 'user', content: 'later' } }], {
    expectedVersion: 3,
    chatId: 'c1',
  });
  await checkpointChat(store, 'c1');
  await store.append(U, [{ id: 'e', item: { role: 'user', content: 'cut' } }], {
    expectedVersion: 4,
    chatId: 'c1',
  });
  await rollbackChat(store, 'c1', (await store.listCheckpoints('c1'))[1]!.checkpointId);
  expect(first.threads).toEqual({ [U]: 3, [P]: 1 });
}

async function snapshot(store: ThreadStore, chatId: string): Promise<unknown> {
  const threads = [];
  for (const r of await store.listThreads({ chatId })) {
    threads.push({
      threadId: r.threadId,
      version: r.version,
      metadata: r.metadata,
      items: await store.readItems(r.threadId),
    });
  }
  return { threads, checkpoints: await store.listCheckpoints(chatId) };
}

describe('chat export and import', () => {
  it('round-trips items, metadata and checkpoints exactly through JSON text', async () => {
    const source = new MemoryStore();
    await sampleChat(source);
    const envelope = await exportChat(source, 'c1');
    expect(envelope).toMatchObject({
      format: CHAT_FORMAT,
      version: CHAT_FORMAT_VERSION,
      chatId: 'c1',
    });
    expect(envelope.threads).toHaveLength(3); // two live threads and the rollback's archive

    const target = new MemoryStore();
    const parsed = parseChatEnvelope(JSON.parse(JSON.stringify(envelope)));
    expect(await importChat(target, parsed)).toBe('c1');
    expect(await snapshot(target, 'c1')).toStrictEqual(await snapshot(source, 'c1'));
    const again = await exportChat(target, 'c1');
    expect(again.checkpoints).toStrictEqual(envelope.checkpoints);
    expect(again.threads.map((t) => [t.threadId, t.metadata, t.items])).toStrictEqual(
      envelope.threads.map((t) => [t.threadId, t.metadata, t.items]),
    );
  });

  it('imports under another chat id, rehoming thread ids and checkpoint thread maps', async () => {
    const source = new MemoryStore();
    await sampleChat(source);
    const envelope = await exportChat(source, 'c1');
    const store = new MemoryStore();
    await importChat(store, envelope);
    expect(await importChat(store, envelope, { as: 'copy' })).toBe('copy');

    const ids = (await store.listThreads({ chatId: 'copy' })).map((r) => r.threadId);
    expect(ids).toContain(threadIdFor('copy', 'A'));
    expect(ids).toContain(threadIdFor('copy', 'A', 'B'));
    expect(ids.every((id) => id.startsWith('copy__'))).toBe(true);
    expect(await store.readItems(threadIdFor('copy', 'A'))).toStrictEqual(
      await source.readItems(U),
    );
    expect((await store.getThread(threadIdFor('copy', 'A')))?.metadata).toEqual({
      topic: 'tides',
      nested: { n: [1, null, 'x'] },
    });

    const checkpoints = await store.listCheckpoints('copy');
    expect(checkpoints.map((c) => c.checkpointId)).toEqual(
      envelope.checkpoints.map((c) => `${c.checkpointId}@copy`),
    );
    expect(checkpoints[0]).toMatchObject({
      chatId: 'copy',
      label: 'first',
      threads: { [threadIdFor('copy', 'A')]: 3, [threadIdFor('copy', 'A', 'B')]: 1 },
    });
    // The original import is unchanged, and the copy's checkpoints work there.
    expect((await store.listCheckpoints('c1')).map((c) => c.checkpointId)).toEqual(
      envelope.checkpoints.map((c) => c.checkpointId),
    );
    await store.append(
      threadIdFor('copy', 'A'),
      [{ id: 'z', item: { role: 'user', content: 'z' } }],
      { expectedVersion: 4 },
    );
    await rollbackChat(store, 'copy', checkpoints[0]!.checkpointId);
    expect((await store.getThread(threadIdFor('copy', 'A')))?.version).toBe(3);
    expect((await store.getThread(U))?.version).toBe(4);
  });

  it('refuses to import over existing threads before writing anything', async () => {
    const source = new MemoryStore();
    await sampleChat(source);
    const envelope = await exportChat(source, 'c1');
    const store = new MemoryStore();
    // Only the last thread of the envelope exists: the earlier ones must not be written either.
    const last = envelope.threads[envelope.threads.length - 1]!.threadId;
    await store.append(last, [{ id: 'mine', item: { role: 'user', content: 'mine' } }], {
      expectedVersion: 0,
      chatId: 'c1',
    });
    const error = await importChat(store, envelope).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toContain(`thread "${last}" already exists`);
    expect((error as Error).message).toContain('--as');
    expect((await store.listThreads()).map((r) => r.threadId)).toEqual([last]);
    expect(await store.readItems(last)).toEqual([
      { id: 'mine', item: { role: 'user', content: 'mine' } },
    ]);
    expect(await store.listCheckpoints('c1')).toEqual([]);
  });

  it('rejects an unknown format and a newer version, naming both versions', () => {
    expect(() => parseChatEnvelope(fixture('invalid-format.json'), 'old.json')).toThrow(
      /old\.json has format "langgraph-checkpoint" version 1, but this build reads "colloquy-chat" version 1/,
    );
    const newer = (() => {
      try {
        parseChatEnvelope(fixture('invalid-newer-version.json'));
      } catch (error) {
        return error as Error;
      }
      throw new Error('a newer version was accepted');
    })();
    expect(newer).toBeInstanceOf(SerializationError);
    expect(newer.message).toMatch(/version 2, newer than version 1/);
    expect(newer.message).toMatch(/Upgrade colloquy/);
    for (const bad of [null, 'text', 42])
      expect(() => parseChatEnvelope(bad)).toThrow(/not a JSON object/);
    expect(() => parseChatEnvelope({ format: CHAT_FORMAT, version: 0 })).toThrow(
      /version 0; expected a whole number from 1 to 1/,
    );
    expect(() => parseChatEnvelope({ format: CHAT_FORMAT, version: '1' })).toThrow(/version "1"/);
  });

  // BUG (src/threads/serialization.ts, parseChatEnvelope, unknown-format branch): the message names
  // only this build's version, not the file's, though the issue asks for both versions.
  it("names the file's version too when the format is unknown", () => {
    expect(() => parseChatEnvelope({ format: 'other-tool', version: 3 })).toThrow(
      /version 3[\s\S]*version 1|version 1[\s\S]*version 3/,
    );
  });

  // BUG (src/threads/chatHistory.ts, rehomeThreadId): an archive id `c1__writer__USER~reset~x` is
  // parsed as the pair ("writer", "USER~reset~x") and re-sorted, giving `copy__USER~reset~x__writer`,
  // which no longer has the `<threadId>~reset~<unique>` shape. Fix: strip the `~reset~…` suffix,
  // rehome the base id, then append the suffix again.
  it('keeps archive ids of agents named after "USER" in sort order shaped <threadId>~reset~…', async () => {
    const store = new MemoryStore();
    const live = threadIdFor('c1', 'writer');
    await store.append(live, [{ id: 'a', item: { role: 'user', content: 'a' } }], {
      expectedVersion: 0,
      chatId: 'c1',
    });
    const { checkpointId } = await checkpointChat(store, 'c1');
    await store.append(live, [{ id: 'b', item: { role: 'user', content: 'b' } }], {
      expectedVersion: 1,
    });
    const archive = (await rollbackChat(store, 'c1', checkpointId))[live]!;
    await importChat(store, await exportChat(store, 'c1'), { as: 'copy' });
    const suffix = archive.slice(live.length);
    expect((await store.listThreads({ chatId: 'copy' })).map((r) => r.threadId)).toContain(
      `${threadIdFor('copy', 'writer')}${suffix}`,
    );
  });

  it('lists the field paths of a structurally broken envelope', () => {
    let message = '';
    try {
      parseChatEnvelope(fixture('invalid-structure.json'), 'broken.json');
    } catch (error) {
      expect(error).toBeInstanceOf(SerializationError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^broken\.json is not a valid version 1 export:/);
    const paths = message
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(':')[0]);
    expect(paths.sort()).toEqual(
      [
        'chatId',
        'threads.0.items.0.id',
        'threads.1.items.1.meta.callerAgent',
        'checkpoints.0.threads.fixture-chat__Coordinator__USER',
        'checkpoints.1.label',
      ].sort(),
    );
    expect(() => parseChatEnvelope({ format: CHAT_FORMAT, version: 1 })).toThrow(
      /\n {2}chatId: .*\n {2}exportedAt: /,
    );
  });
});

describe('frozen export fixtures', () => {
  // One frozen fixture per released version: these files are never regenerated.
  it('reads the version 1 fixture and imports it', async () => {
    const envelope: ChatEnvelope = parseChatEnvelope(fixture('v1.json'), 'v1.json');
    expect(envelope.chatId).toBe('fixture-chat');
    const store = new MemoryStore();
    await importChat(store, envelope);
    const user = threadIdFor('fixture-chat', 'Coordinator');
    const versions = Object.fromEntries(
      (await store.listThreads({ chatId: 'fixture-chat' })).map((r) => [r.threadId, r.version]),
    );
    expect(versions).toEqual({
      [threadIdFor('fixture-chat', 'Coordinator', 'Researcher')]: 2,
      [user]: 4,
      'fixture-chat__Coordinator__USER~reset~mwt7g0un-a73b8d35': 5,
    });
    const items = await store.readItems(user);
    expect(items.map((i) => i.id)).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(items[1]!.item).toMatchObject({
      type: 'function_call',
      callId: 'call_1',
      name: 'send_message',
    });
    expect(items[0]!.meta).toEqual({
      agent: 'Coordinator',
      callerAgent: null,
      runId: 'run_1',
      parentRunId: null,
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    expect((await store.getThread(user))?.metadata).toEqual({ topic: 'tides' });
    const checkpoints = await store.listCheckpoints('fixture-chat');
    expect(checkpoints.map((c) => [c.label, c.threads[user]])).toEqual([
      ['after first answer', 4],
      ['second', 5],
    ]);
    expect(await rollbackChat(store, 'fixture-chat', checkpoints[0]!.checkpointId)).toEqual({});
  });
});
