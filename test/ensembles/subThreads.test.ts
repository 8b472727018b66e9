import { describe, expect, it } from 'vitest';
import { SubThreadCache } from '../../src/ensembles/subThreads.js';
import type { ThreadItem } from '../../src/stores/item.js';

const items = (prefix: string, count: number, from = 0): ThreadItem[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${from + i}`,
    item: { role: 'user' as const, content: `${prefix} ${from + i}` },
  }));

const ids = (list: readonly ThreadItem[] | undefined) => (list ?? []).map((entry) => entry.id);

describe('SubThreadCache', () => {
  it('keeps each entry`s model message beside it, for cached threads only', () => {
    const cache = new SubThreadCache();
    cache.add('t', items('a', 1));
    expect(cache.entries('t')).toBeUndefined();
    cache.set('t', items('a', 2));
    cache.add('t', items('a', 1, 2));
    expect(ids(cache.entries('t'))).toEqual(['a-0', 'a-1', 'a-2']);
    expect(cache.inputs('t')).toEqual(items('a', 3).map((entry) => entry.item));
  });

  it('takes staged items out (all, or one thread) and puts them back before later ones', () => {
    const cache = new SubThreadCache();
    cache.set('t', []);
    cache.stage('t', items('a', 2));
    cache.stage('u', items('b', 1));
    expect(cache.stagedCount('t')).toBe(2);
    const taken = cache.take('t');
    expect(taken.map(([id, list]) => [id, ids(list)])).toEqual([['t', ['a-0', 'a-1']]]);
    expect(cache.stagedCount('t')).toBe(0);
    cache.stage('t', items('a', 1, 2));
    cache.restage(taken);
    expect(ids(cache.take().find(([id]) => id === 't')?.[1])).toEqual(['a-0', 'a-1', 'a-2']);
    expect(cache.take()).toEqual([]);
    expect(ids(cache.entries('t'))).toEqual(['a-0', 'a-1', 'a-2']);
  });

  it('cuts staged items in memory, and says when written ones must be cut in the store', () => {
    const cache = new SubThreadCache();
    cache.set('t', items('a', 2));
    cache.stage('t', items('a', 2, 2));
    // 4 items, 2 written: cutting to 3 drops one staged item only.
    expect(cache.cut('t', 3, 2)).toBe(false);
    expect(cache.stagedCount('t')).toBe(1);
    expect(ids(cache.entries('t'))).toEqual(['a-0', 'a-1', 'a-2']);
    expect(cache.inputs('t')).toHaveLength(3);
    // Below the written items: the store must cut too, and nothing staged is left.
    expect(cache.cut('t', 1, 2)).toBe(true);
    expect(cache.stagedCount('t')).toBe(0);
    expect(ids(cache.entries('t'))).toEqual(['a-0']);
    expect(cache.inputs('t')).toHaveLength(1);
  });
});
