import { describe, expect, it } from 'vitest';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { AppendOptions } from '../../src/stores/types.js';
import { expectCode } from '../../src/testing/conformance/helpers.js';

/** A memory store that records which primitives the base called. */
class SpyStore extends MemoryStore {
  readonly calls: string[] = [];
  protected override appendItems(id: string, bodies: string[], options: AppendOptions) {
    this.calls.push(`appendItems ${bodies.length}`);
    return super.appendItems(id, bodies, options);
  }
  protected override writeMetadata(id: string, json: string, chatId: string | null | undefined) {
    this.calls.push(`writeMetadata ${json}`);
    return super.writeMetadata(id, json, chatId);
  }
}

const one: ThreadItem[] = [{ id: 'a', item: { role: 'user', content: 'hi' } }];

describe('BaseStore checks arguments before any primitive runs', () => {
  it('refuses bad ids, versions, items and metadata without calling the backend', async () => {
    const store = new SpyStore();
    await expectCode(store.append('\ud800', one, { expectedVersion: 0 }), 'CONFIG_INVALID');
    await expectCode(store.append('t', one, { expectedVersion: 1.5 }), 'CONFIG_INVALID');
    await expectCode(store.append('t', one, { expectedVersion: -1 }), 'CONFIG_INVALID');
    const bigint = [{ id: 'b', item: { n: 1n } }] as unknown as ThreadItem[];
    await expectCode(store.append('t', bigint, { expectedVersion: 0 }), 'SERIALIZATION_ERROR');
    const notItem = ['text'] as unknown as ThreadItem[];
    await expectCode(store.append('t', notItem, { expectedVersion: 0 }), 'SERIALIZATION_ERROR');
    for (const bad of [null, [1], 'x', 3]) {
      const metadata = bad as unknown as Record<string, unknown>;
      await expectCode(store.setMetadata('t', metadata), 'CONFIG_INVALID');
      await expectCode(store.fork('t', 'f', { metadata }), 'CONFIG_INVALID');
    }
    await expectCode(store.readItems('t', { from: 0.5 }), 'CONFIG_INVALID');
    expect(store.calls).toEqual([]);
    expect(await store.listThreads()).toEqual([]);
  });

  it('hands the primitives serialized items and metadata', async () => {
    const store = new SpyStore();
    expect(await store.append('t', one, { expectedVersion: 0 })).toBe(1);
    await store.setMetadata('t', { step: 1 });
    expect(store.calls).toEqual(['appendItems 1', 'writeMetadata {"step":1}']);
    expect((await store.getThread('t'))?.metadata).toEqual({ step: 1 });
  });

  it('names the operation rollback in its errors and gives each rollback a fresh archive id', async () => {
    const store = new MemoryStore();
    await store.append('t', [...one, { ...one[0]!, id: 'b' }], { expectedVersion: 0 });
    await expect(store.rollback('t', 5)).rejects.toThrow(/^rollback\("t"\): version 5/);
    await expect(store.rollback('nope', 0)).rejects.toThrow(/rollback\("nope"\)/);
    const first = await store.rollback('t', 1);
    await store.append(
      't',
      one.map((i) => ({ ...i, id: 'c' })),
      { expectedVersion: 1 },
    );
    const second = await store.rollback('t', 0);
    expect(first).toMatch(/^t~reset~/);
    expect(second).toMatch(/^t~reset~/);
    expect(second).not.toBe(first);
  });
});
