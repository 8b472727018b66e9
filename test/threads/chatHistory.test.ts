import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import {
  CheckpointNotFoundError,
  StaleCheckpointError,
  checkpointChat,
  findCheckpoint,
  forkChat,
  liveThreads,
  rehomeThreadId,
  rollbackChat,
} from '../../src/threads/chatHistory.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { threadIdFor } from '../../src/threads/threadId.js';

let counter = 0;
const msg = (text: string): ThreadItem => ({
  id: `i${++counter}`,
  item: { role: 'user', content: text },
});
const texts = (items: ThreadItem[]): string[] =>
  items.map(({ item }) => String((item as { content: unknown }).content));

async function add(
  store: ThreadStore,
  threadId: string,
  chatId: string,
  ...words: string[]
): Promise<number> {
  const record = await store.getThread(threadId);
  return store.append(threadId, words.map(msg), { expectedVersion: record?.version ?? 0, chatId });
}

const backends: Array<[string, () => { store: ThreadStore; cleanup: () => void }]> = [
  ['MemoryStore', () => ({ store: new MemoryStore(), cleanup: () => {} })],
  [
    'SqliteStore',
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-history-'));
      return {
        store: new SqliteStore({ path: path.join(dir, 'threads.db') }),
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
];

describe.each(backends)('chat history on %s', (_name, open) => {
  let store: ThreadStore;
  let cleanup: () => void;
  beforeEach(() => ({ store, cleanup } = open()));
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const U = threadIdFor('c1', 'A');
  const P = threadIdFor('c1', 'A', 'B');
  const N = threadIdFor('c1', 'A', 'C');

  async function seed(): Promise<void> {
    await add(store, U, 'c1', 'u1', 'u2');
    await add(store, P, 'c1', 'p1');
    await add(store, threadIdFor('other', 'A'), 'other', 'x1');
  }

  it('a checkpoint records the version of every live thread of the chat, and only of that chat', async () => {
    await seed();
    const checkpoint = await checkpointChat(store, 'c1', 'first');
    expect(checkpoint).toMatchObject({ chatId: 'c1', label: 'first', threads: { [U]: 2, [P]: 1 } });
    expect(Object.keys(checkpoint.threads)).toHaveLength(2);
    expect(checkpoint.checkpointId).toMatch(/^ckpt_/);
    expect(Number.isNaN(Date.parse(checkpoint.createdAt))).toBe(false);
    expect(await store.listCheckpoints('c1')).toEqual([checkpoint]);
    expect(await findCheckpoint(store, 'c1', checkpoint.checkpointId)).toEqual(checkpoint);
    expect((await checkpointChat(store, 'c1')).label).toBeNull();
  });

  it('rollback cuts every thread back, archives the cut items and cuts later threads to 0', async () => {
    await seed();
    const { checkpointId } = await checkpointChat(store, 'c1');
    await add(store, U, 'c1', 'u3', 'u4');
    await add(store, P, 'c1', 'p2');
    await add(store, N, 'c1', 'n1', 'n2');
    const archives = await rollbackChat(store, 'c1', checkpointId);

    expect(Object.keys(archives).sort()).toEqual([U, P, N].sort());
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2']);
    expect(texts(await store.readItems(P))).toEqual(['p1']);
    expect((await store.getThread(N))?.version).toBe(0);
    expect(texts(await store.readItems(archives[U]!))).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(texts(await store.readItems(archives[U]!, { from: 2 }))).toEqual(['u3', 'u4']);
    expect(texts(await store.readItems(archives[P]!))).toEqual(['p1', 'p2']);
    expect(texts(await store.readItems(archives[N]!))).toEqual(['n1', 'n2']);
    expect((await liveThreads(store, 'c1')).map((r) => r.threadId).sort()).toEqual(
      [U, P, N].sort(),
    );
    expect(texts(await store.readItems(threadIdFor('other', 'A')))).toEqual(['x1']);
  });

  it('a second checkpoint and rollback after a first rollback work and ignore archive threads', async () => {
    await seed();
    const first = await checkpointChat(store, 'c1');
    await add(store, U, 'c1', 'u3');
    await add(store, N, 'c1', 'n1');
    const firstArchives = await rollbackChat(store, 'c1', first.checkpointId);
    await add(store, U, 'c1', 'v3');
    const second = await checkpointChat(store, 'c1', 'second');
    expect(second.threads).toEqual({ [U]: 3, [P]: 1, [N]: 0 });
    expect(
      Object.keys(second.threads).some((id) => Object.values(firstArchives).includes(id)),
    ).toBe(false);

    await add(store, U, 'c1', 'v4', 'v5');
    await add(store, N, 'c1', 'n9');
    const archives = await rollbackChat(store, 'c1', second.checkpointId);
    expect(Object.keys(archives).sort()).toEqual([U, N].sort());
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2', 'v3']);
    expect(texts(await store.readItems(archives[U]!, { from: 3 }))).toEqual(['v4', 'v5']);
    expect(await store.readItems(N)).toEqual([]);
    // The first rollback's archives are left alone.
    expect(texts(await store.readItems(firstArchives[U]!))).toEqual(['u1', 'u2', 'u3']);
    expect((await store.listCheckpoints('c1')).map((c) => c.checkpointId)).toEqual([
      first.checkpointId,
      second.checkpointId,
    ]);
  });

  // A checkpoint holds versions and the id of each thread's last item: once an earlier rollback cut
  // a thread and new items grew it back past a later checkpoint, that checkpoint is refused (its
  // items live on in the archive), for rollback and fork alike.
  it('refuses a checkpoint whose positions were cut by an earlier rollback and refilled', async () => {
    await seed();
    const early = await checkpointChat(store, 'c1');
    await add(store, U, 'c1', 'late3', 'late4');
    const late = await checkpointChat(store, 'c1');
    await rollbackChat(store, 'c1', early.checkpointId);
    await add(store, U, 'c1', 'new3', 'new4');
    await expect(rollbackChat(store, 'c1', late.checkpointId)).rejects.toBeInstanceOf(
      StaleCheckpointError,
    );
    await expect(forkChat(store, 'c1', { checkpointId: late.checkpointId })).rejects.toThrow(
      /no longer matches/,
    );
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2', 'new3', 'new4']);
    await rollbackChat(store, 'c1', early.checkpointId);
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2']);
  });

  it('forkChat from now copies every live thread under the new chat and leaves the original alone', async () => {
    await seed();
    const { checkpointId } = await checkpointChat(store, 'c1');
    await add(store, U, 'c1', 'u3');
    await rollbackChat(store, 'c1', checkpointId); // leaves an archive thread, which is not forked
    await add(store, U, 'c1', 'u3b');
    const forked = await forkChat(store, 'c1', { newChatId: 'f1' });
    expect(forked).toBe('f1');
    const fU = threadIdFor('f1', 'A');
    const fP = threadIdFor('f1', 'A', 'B');
    expect((await store.listThreads({ chatId: 'f1' })).map((r) => r.threadId)).toEqual(
      [fP, fU].sort(),
    );
    expect(texts(await store.readItems(fU))).toEqual(['u1', 'u2', 'u3b']);
    expect(texts(await store.readItems(fP))).toEqual(['p1']);

    await add(store, fU, 'f1', 'fork-only');
    await add(store, U, 'c1', 'orig-only');
    expect(texts(await store.readItems(fU))).toEqual(['u1', 'u2', 'u3b', 'fork-only']);
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2', 'u3b', 'orig-only']);
    expect((await store.getThread(fU))?.chatId).toBe('f1');
    expect(await forkChat(store, 'c1')).toMatch(/^chat_/);
  });

  it('forkChat from a checkpoint copies the checkpointed prefixes only', async () => {
    await seed();
    const { checkpointId } = await checkpointChat(store, 'c1', 'early');
    await add(store, U, 'c1', 'u3', 'u4');
    await add(store, N, 'c1', 'n1');
    const forked = await forkChat(store, 'c1', { checkpointId, newChatId: 'past' });
    const pU = threadIdFor('past', 'A');
    expect((await store.listThreads({ chatId: 'past' })).map((r) => r.threadId)).toEqual(
      [pU, threadIdFor('past', 'A', 'B')].sort(),
    );
    expect(texts(await store.readItems(pU))).toEqual(['u1', 'u2']);
    await add(store, pU, forked, 'alt3');
    await add(store, U, 'c1', 'u5');
    expect(texts(await store.readItems(pU))).toEqual(['u1', 'u2', 'alt3']);
    expect(texts(await store.readItems(U))).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    expect(texts(await store.readItems(N))).toEqual(['n1']);
  });

  it('an unknown checkpoint raises CheckpointNotFoundError listing the known ids', async () => {
    await seed();
    const error = await rollbackChat(store, 'c1', 'ckpt_nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointNotFoundError);
    expect((error as Error).message).toMatch(/no checkpoints yet/);
    const a = await checkpointChat(store, 'c1', 'alpha');
    const b = await checkpointChat(store, 'c1');
    const other = await checkpointChat(store, 'other');
    for (const attempt of [
      rollbackChat(store, 'c1', 'ckpt_nope'),
      forkChat(store, 'c1', { checkpointId: other.checkpointId }),
      findCheckpoint(store, 'c1', 'ckpt_nope'),
    ]) {
      const e = await attempt.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CheckpointNotFoundError);
      expect((e as CheckpointNotFoundError).code).toBe('CHECKPOINT_NOT_FOUND');
      expect((e as Error).message).toContain(`${a.checkpointId} (alpha)`);
      expect((e as Error).message).toContain(b.checkpointId);
      expect((e as Error).message).not.toContain(`${other.checkpointId},`);
    }
    await expect(forkChat(store, 'nothing-here')).rejects.toMatchObject({
      code: 'THREAD_NOT_FOUND',
    });
  });
});

describe('rehomeThreadId', () => {
  it('moves pair and user threads, escaping awkward names, and prefixed ids', () => {
    expect(rehomeThreadId(threadIdFor('c1', 'A'), 'c1', 'c2')).toBe(threadIdFor('c2', 'A'));
    expect(rehomeThreadId(threadIdFor('c1', 'B', 'A'), 'c1', 'c__2')).toBe(
      threadIdFor('c__2', 'A', 'B'),
    );
    expect(rehomeThreadId(threadIdFor('a__b', 'x__y', 'USER'), 'a__b', 'n')).toBe(
      threadIdFor('n', 'x__y', 'USER'),
    );
    expect(rehomeThreadId('c1::workflow/main', 'c1', 'c2')).toBe('c2::workflow/main');
    expect(() => rehomeThreadId(threadIdFor('c9', 'A'), 'c1', 'c2')).toThrow(
      /does not start with that chat/,
    );
  });
});
