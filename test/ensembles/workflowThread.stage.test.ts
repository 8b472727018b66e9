import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/errors.js';
import { createConversationState } from '../../src/ensembles/state.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { runningData } from './helpers.js';

const items = (prefix: string, count: number, from = 0): ThreadItem[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${from + i}`,
    item: { role: 'user' as const, content: `${prefix} ${from + i}` },
  }));

const create = (store: ThreadStore, runId = 'r') =>
  WorkflowThread.create(store, runId, {
    conversation: createConversationState(),
    data: runningData(),
  });

const contents = (list: readonly ThreadItem[]) =>
  list.map((entry) => (entry.item as { content: string }).content);

describe('WorkflowThread.stage', () => {
  it('keeps staged items in memory (view, inputs, version) until the next save writes them', async () => {
    const store = new MemoryStore();
    const workflow = await create(store);
    expect(await workflow.stage('a', items('a', 2))).toBe(2);
    expect(await workflow.version('a')).toBe(2);
    expect(contents(await workflow.view('a'))).toEqual(['a 0', 'a 1']);
    expect(await workflow.inputs('a')).toEqual(items('a', 2).map((entry) => entry.item));
    expect(await store.readItems('r::a')).toEqual([]);
    await workflow.save(workflow.state, 'step', false);
    expect(contents(await store.readItems('r::a'))).toEqual(['a 0', 'a 1']);
    // Saved once: a second save writes nothing more.
    await workflow.save(workflow.state, 'step', false);
    expect(await store.readItems('r::a')).toHaveLength(2);
  });

  it('writes the staged items, the turn items and the head in one appendMany on SQLite', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    try {
      const workflow = await create(store);
      await workflow.stage('a', items('a', 2));
      await workflow.stage('b', items('b', 1));
      const calls: string[] = [];
      for (const method of ['append', 'appendMany', 'setMetadata'] as const) {
        const original = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
        (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          calls.push(method);
          return original(...args);
        };
      }
      const state = workflow.state;
      state.data.elapsed_ms = 7;
      await workflow.save(state, 'step', false);
      expect(calls).toEqual(['appendMany']);
      expect(await store.readItems('r::a')).toHaveLength(2);
      expect(await store.readItems('r::b')).toHaveLength(1);
      const loaded = await WorkflowThread.load(store, 'r');
      expect(loaded!.state.data.elapsed_ms).toBe(7);
      expect(contents(await loaded!.view('a'))).toEqual(['a 0', 'a 1']);
      expect(await loaded!.inputs('b')).toEqual([items('b', 1)[0]!.item]);
    } finally {
      await store.close();
    }
  });

  it('on a conflict writes nothing on SQLite, neither the items nor the head', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    try {
      const workflow = await create(store);
      await workflow.view('a');
      await workflow.stage('a', items('a', 2));
      // Another writer appends to the sub-thread meanwhile.
      await store.append('r::a', items('x', 1), { expectedVersion: 0, chatId: 'r' });
      const state = workflow.state;
      state.data.elapsed_ms = 9;
      await expect(workflow.save(state, 'step', false)).rejects.toBeInstanceOf(ConflictError);
      expect(contents(await store.readItems('r::a'))).toEqual(['x 0']);
      const loaded = await WorkflowThread.load(store, 'r');
      expect(loaded!.state.data.elapsed_ms).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('truncate cuts staged items in memory, and written ones in the store', async () => {
    const store = new MemoryStore();
    const workflow = await create(store);
    await workflow.append('a', items('a', 2));
    await workflow.stage('a', items('a', 2, 2));
    // Within the staged items: nothing to reset in the store.
    await workflow.truncate('a', 3);
    expect(await workflow.version('a')).toBe(3);
    expect(contents(await workflow.view('a'))).toEqual(['a 0', 'a 1', 'a 2']);
    expect(await workflow.inputs('a')).toHaveLength(3);
    expect((await store.getThread('r::a'))?.version).toBe(2);
    // Below the written items: the store is reset and nothing staged is left to write.
    await workflow.truncate('a', 1);
    expect((await store.getThread('r::a'))?.version).toBe(1);
    await workflow.save(workflow.state, 'step', false);
    expect(contents(await store.readItems('r::a'))).toEqual(['a 0']);
    expect(contents(await workflow.view('a'))).toEqual(['a 0']);
  });

  it('append writes the items staged before it first, in order', async () => {
    const store = new MemoryStore();
    const workflow = await create(store);
    await workflow.stage('a', items('a', 2));
    expect(await workflow.append('a', items('a', 1, 2))).toBe(3);
    expect(contents(await store.readItems('r::a'))).toEqual(['a 0', 'a 1', 'a 2']);
    expect(contents(await workflow.view('a'))).toEqual(['a 0', 'a 1', 'a 2']);
    await workflow.save(workflow.state, 'step', false);
    expect(await store.readItems('r::a')).toHaveLength(3);
  });

  it('keeps items staged while a save is being written for the next save', async () => {
    const store = new MemoryStore();
    const workflow = await create(store);
    await workflow.stage('a', items('a', 1));
    await workflow.view('b');
    const append = store.append.bind(store);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    store.append = async (...args) => {
      await gate;
      return append(...args);
    };
    const saving = workflow.save(workflow.state, 'step', false);
    // Another agent of the step finishes while the save is in flight.
    await workflow.stage('b', items('b', 1));
    release();
    await saving;
    expect(await store.readItems('r::b')).toEqual([]);
    await workflow.save(workflow.state, 'step', false);
    expect(contents(await store.readItems('r::a'))).toEqual(['a 0']);
    expect(contents(await store.readItems('r::b'))).toEqual(['b 0']);
  });

  it('puts the staged items back when a save fails, and writes them with the next one', async () => {
    const store = new MemoryStore();
    const workflow = await create(store);
    await workflow.stage('a', items('a', 2));
    const append = store.append.bind(store);
    store.append = async () => {
      throw new Error('disk full');
    };
    await expect(workflow.save(workflow.state, 'step', false)).rejects.toThrow('disk full');
    await workflow.stage('a', items('a', 1, 2));
    store.append = append;
    await workflow.save(workflow.state, 'step', false);
    expect(contents(await store.readItems('r::a'))).toEqual(['a 0', 'a 1', 'a 2']);
  });
});
