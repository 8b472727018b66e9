/**
 * Memory writes and thread writes: the vectors of a turn are written after its thread items, with
 * the thread's indexed mark in one backend transaction. A fault between the two writes leaves
 * saved items without vectors (never vectors without items), and the chat's next call indexes
 * them; a failed thread write leaves no vectors at all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import { SqliteMemory } from '../../src/memory/sqliteMemory.js';
import type { MemoryBackend } from '../../src/memory/types.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { recalledIn } from '../../examples/memory/remember.js';

/** The SQLite store and memory in one file, with faults to switch on. */
function setup() {
  const store = new SqliteStore({
    path: path.join(mkdtempSync(path.join(tmpdir(), 'memory-atomic-')), 'c.db'),
  });
  const memory = new SqliteMemory({ store });
  const faults = { memory: false, thread: false };
  const addEntries = memory.addEntries.bind(memory);
  memory.addEntries = (...args: Parameters<MemoryBackend['addEntries']>) =>
    faults.memory
      ? Promise.reject(new Error('crash between the thread write and the memory write'))
      : addEntries(...args);
  const append = store.append.bind(store);
  store.append = (...args: Parameters<typeof store.append>) =>
    faults.thread ? Promise.reject(new Error('disk full')) : append(...args);
  const model = new ScriptedModel(() => 'Noted.', { name: 'm', repeatLast: true });
  const agency = new Agency({
    name: 'atomic',
    entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
    threads: new ThreadManager({ store }),
    memory: { store: memory, embedder: new HashedEmbedder(), recall: {} },
  });
  return { store, memory, faults, agency, model };
}

describe('memory writes and thread writes', () => {
  it('a fault after the thread write leaves items without vectors, repaired by the next call', async () => {
    const { store, memory, faults, agency, model } = setup();
    faults.memory = true;
    await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'c1' });
    const [thread] = await store.listThreads({ chatId: 'c1' });
    expect(await store.readItems(thread!.threadId)).toHaveLength(2);
    expect(await memory.list({ userId: 'u1' })).toEqual([]);
    expect(await memory.indexedVersion(thread!.threadId)).toBe(0);

    faults.memory = false;
    await agency.getResponse('I also like jazz', { userId: 'u1', chatId: 'c1' });
    const texts = (await memory.list({ userId: 'u1' })).map((r) => r.text);
    expect(texts).toEqual(['My favourite colour is teal', 'Noted.', 'I also like jazz', 'Noted.']);
    expect(await memory.indexedVersion(thread!.threadId)).toBe(4);

    await agency.getResponse('Which colour do I like?', { userId: 'u1', chatId: 'c2' });
    expect(recalledIn(model.calls.at(-1)!.request)).toContain('My favourite colour is teal');
    await store.close();
  });

  it('a failed thread write leaves no vectors', async () => {
    const { store, memory, faults, agency } = setup();
    faults.thread = true;
    await expect(
      agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'c1' }),
    ).rejects.toThrow(/disk full/);
    expect(await store.listThreads({ chatId: 'c1' })).toEqual([]);
    expect(await memory.list({ userId: 'u1' })).toEqual([]);
    await store.close();
  });
});
