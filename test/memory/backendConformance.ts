/**
 * The conformance suite of memory backends: every {@link MemoryBackend} (in-process, SQLite,
 * Postgres, Redis) must pass the same tests: exact top-k search within a user's scope, idempotent
 * adds with their indexed marks, listing oldest first, versioned working memory, summaries by
 * position, forget that says what it deleted, and replacing vectors after a change of embedder.
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cosine } from '../../src/memory/embedder.js';
import type { MemoryBackend, MemoryEntry } from '../../src/memory/types.js';

/** One backend under test. */
export interface BackendUnderTest {
  name: string;
  /** Why the suite skips (e.g. the server is not installed). */
  skip?: string | undefined;
  /** A fresh, empty backend. */
  create: () => Promise<MemoryBackend>;
  /** Closes it and deletes what it stored. */
  destroy?: (backend: MemoryBackend) => Promise<void>;
}

/** A deterministic pseudo-random vector. */
export function vectorOf(seed: number, dimensions = 8): number[] {
  let state = seed * 2654435761;
  return Array.from({ length: dimensions }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
}

/** An entry of user `userId` in `agency`, chat `chatId`, at `position`. */
export function entry(seed: number, over: Partial<MemoryEntry> = {}, dimensions = 8): MemoryEntry {
  const chatId = over.chatId ?? 'c1';
  return {
    itemId: `item_${seed}`,
    agency: 'a1',
    userId: 'u1',
    chatId,
    threadId: `${chatId}::A`,
    position: seed,
    role: seed % 2 === 0 ? 'user' : 'assistant',
    agent: 'A',
    text: `message ${seed}`,
    model: 'test-8',
    dimensions,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seed)).toISOString(),
    vector: vectorOf(seed, dimensions),
    ...over,
  };
}

/** Runs the suite against `subject`. */
export function runMemoryBackendConformance(subject: BackendUnderTest): void {
  describe.skipIf(subject.skip !== undefined)(`memory backend: ${subject.name}`, () => {
    const open: MemoryBackend[] = [];
    const make = async () => {
      const backend = await subject.create();
      open.push(backend);
      return backend;
    };
    afterEach(async () => {
      for (const backend of open.splice(0)) {
        await (subject.destroy ? subject.destroy(backend) : backend.close());
      }
    });

    it('searches exactly within the scope, best first, with cosine similarities', async () => {
      const backend = await make();
      expect(await backend.embedding()).toBeNull();
      const mine = Array.from({ length: 40 }, (_, i) => entry(i, { chatId: `c${i % 4}` }));
      const others = [
        entry(100, { userId: 'u2' }),
        entry(101, { agency: 'a2', threadId: 'x::A', itemId: 'other' }),
      ];
      await backend.addEntries([...mine, ...others], { 'c0::A': 10 });
      expect(await backend.embedding()).toEqual({ model: 'test-8', dimensions: 8 });
      const query = vectorOf(7);
      const exact = mine
        .map((e) => ({ itemId: e.itemId, similarity: cosine(query, e.vector) }))
        .sort((a, b) => b.similarity - a.similarity);
      const hits = await backend.search(query, { userId: 'u1', agency: 'a1' }, 5);
      expect(hits.map((h) => h.itemId)).toEqual(exact.slice(0, 5).map((e) => e.itemId));
      expect(hits[0]!.similarity).toBeCloseTo(1, 4);
      hits.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(exact[i]!.similarity, 4));
      expect(hits[0]).toMatchObject({ text: 'message 7', chatId: 'c3', role: 'assistant' });
      expect(hits[0]).not.toHaveProperty('vector');

      const inChats = await backend.search(
        query,
        { userId: 'u1', agency: 'a1', chatIds: ['c0'] },
        3,
      );
      expect(inChats.every((h) => h.chatId === 'c0')).toBe(true);
      expect(inChats).toHaveLength(3);
      const everyAgency = await backend.search(vectorOf(101), { userId: 'u1' }, 1);
      expect(everyAgency[0]!.itemId).toBe('other');
      expect(await backend.search(query, { userId: 'nobody', agency: 'a1' }, 5)).toEqual([]);
      expect(await backend.search(query, { userId: 'u2', agency: 'a1' }, 5)).toHaveLength(1);
    });

    it('adds idempotently and keeps the indexed marks of threads', async () => {
      const backend = await make();
      expect(await backend.indexedVersion('c1::A')).toBe(0);
      await backend.addEntries([entry(0), entry(1)], { 'c1::A': 2 });
      await backend.addEntries([entry(1), entry(2)], { 'c1::A': 3 });
      expect(await backend.indexedVersion('c1::A')).toBe(3);
      const listed = await backend.list({ userId: 'u1', agency: 'a1' });
      expect(listed.map((r) => r.itemId)).toEqual(['item_0', 'item_1', 'item_2']);
      expect(listed[0]).not.toHaveProperty('vector');
      await backend.addEntries([], { 'c9::A': 4 });
      expect(await backend.indexedVersion('c9::A')).toBe(4);
    });

    it('refuses vectors of another embedder, naming reembed', async () => {
      const backend = await make();
      await backend.addEntries([entry(0)], {});
      await expect(
        backend.addEntries([entry(1, { model: 'other', dimensions: 4, vector: [1, 0, 0, 0] })], {
          'c1::A': 2,
        }),
      ).rejects.toThrow(/reembed/);
      expect(await backend.indexedVersion('c1::A')).toBe(0);
    });

    it('streams entries with vectors and replaces them for a new embedder', async () => {
      const backend = await make();
      await backend.addEntries([entry(0), entry(1, { userId: 'u2' })], { 'c1::A': 2 });
      const batches: MemoryEntry[] = [];
      for await (const batch of backend.entries()) batches.push(...batch);
      expect(batches).toHaveLength(2);
      expect(batches[0]!.vector[0]).toBeCloseTo(vectorOf(0)[0]!, 5);
      const u2: MemoryEntry[] = [];
      for await (const batch of backend.entries({ userId: 'u2' })) u2.push(...batch);
      expect(u2.map((e) => e.itemId)).toEqual(['item_1']);

      const renewed = batches.map((e, i) => ({
        ...e,
        model: 'new-4',
        dimensions: 4,
        vector: [i + 1, 1, 0, 0],
      }));
      await backend.replaceVectors(renewed);
      expect(await backend.embedding()).toEqual({ model: 'new-4', dimensions: 4 });
      const hits = await backend.search([1, 1, 0, 0], { userId: 'u1', agency: 'a1' }, 5);
      expect(hits.map((h) => [h.itemId, h.model])).toEqual([['item_0', 'new-4']]);
      expect(await backend.indexedVersion('c1::A')).toBe(2);
    });

    it('versions working memory per agency and user', async () => {
      const backend = await make();
      expect(await backend.getWorking('a1', 'u1')).toBeNull();
      await backend.putWorking('a1', 'u1', 'likes teal');
      const second = await backend.putWorking('a1', 'u1', 'likes red');
      await backend.putWorking('a1', 'u2', 'other user');
      expect(second).toMatchObject({
        agency: 'a1',
        userId: 'u1',
        version: 2,
        content: 'likes red',
      });
      expect(await backend.getWorking('a1', 'u1')).toMatchObject({
        version: 2,
        content: 'likes red',
      });
      expect((await backend.workingVersions('a1', 'u1')).map((v) => v.content)).toEqual([
        'likes teal',
        'likes red',
      ]);
      expect(await backend.getWorking('a2', 'u1')).toBeNull();
    });

    it('keeps summaries by position, replacing one at the same position', async () => {
      const backend = await make();
      const summary = {
        threadId: 't1',
        headId: 'h1',
        agency: 'a1',
        userId: 'u1',
        text: 'first',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      await backend.putSummary({ ...summary, position: 20 });
      await backend.putSummary({ ...summary, position: 10 });
      await backend.putSummary({ ...summary, position: 20, text: 'again', headId: 'h2' });
      const stored = await backend.summaries('t1');
      expect(stored.map((s) => [s.position, s.text, s.headId])).toEqual([
        [10, 'first', 'h1'],
        [20, 'again', 'h2'],
      ]);
      expect(await backend.summaries('t2')).toEqual([]);
    });

    it('forgets a user (of one agency, or all) and says what it deleted', async () => {
      const backend = await make();
      await backend.addEntries(
        [
          entry(0),
          entry(1),
          entry(2, { agency: 'a2', threadId: 'z::A', itemId: 'z' }),
          entry(3, { userId: 'u2' }),
        ],
        {},
      );
      await backend.putWorking('a1', 'u1', 'one');
      await backend.putWorking('a1', 'u1', 'two');
      await backend.putWorking('a2', 'u1', 'three');
      const summary = { headId: 'h', text: 's', createdAt: '2026-01-01T00:00:00.000Z' };
      await backend.putSummary({
        ...summary,
        threadId: 't1',
        position: 4,
        agency: 'a1',
        userId: 'u1',
      });
      await backend.putSummary({
        ...summary,
        threadId: 't2',
        position: 4,
        agency: 'a1',
        userId: 'u2',
      });

      expect(await backend.forget('u1', 'a2')).toEqual({
        vectors: 1,
        workingVersions: 1,
        summaries: 0,
      });
      expect(await backend.forget('u1')).toEqual({ vectors: 2, workingVersions: 2, summaries: 1 });
      expect(await backend.list({ userId: 'u1' })).toEqual([]);
      expect(await backend.search(vectorOf(0), { userId: 'u1', agency: 'a1' }, 5)).toEqual([]);
      expect(await backend.workingVersions('a1', 'u1')).toEqual([]);
      expect(await backend.summaries('t1')).toEqual([]);
      expect(await backend.list({ userId: 'u2' })).toHaveLength(1);
      expect(await backend.summaries('t2')).toHaveLength(1);
      expect(await backend.forget('u1')).toEqual({ vectors: 0, workingVersions: 0, summaries: 0 });
    });
  });
}
