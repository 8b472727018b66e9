/**
 * Shared parts of the id fuzz tests (`ids.fuzz.test.ts` for the in-process stores,
 * `ids.fuzz.int.test.ts` for Redis and Postgres): id generators, the round-trip property and
 * the vitest block that runs it against a list of stores.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStorableId } from '../../src/stores/ids.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { checkProperty, fuzzRuns, fuzzTimeout, withinBudget } from '../setup/fuzz.js';
import type { IsolatedBackend } from './isolatedStores.js';

/** Strings of any UTF-16 code units (lone surrogates included), and tricky hand-picked ones. */
export const codeUnits = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), {
    maxLength: 12,
  })
  .map((units) => String.fromCharCode(...units));
const id = fc.oneof(
  codeUnits,
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ maxLength: 16 }),
  fc.constantFrom(
    '\udbff-x',
    '\udfff-x',
    '\ufffd-x',
    'a__b%__c',
    '%',
    '~reset~x',
    'USER',
    '__',
    '.',
    '..',
    '/',
    'A',
    'a',
    'ü',
    'u\u0308',
    '\u0000',
    ' ',
    '\ud83d\ude00',
    'x'.repeat(300),
  ),
);
const ids = fc.uniqueArray(id, { minLength: 1, maxLength: 6 });

export interface Target {
  name: string;
  skip?: string;
  open: () => Promise<{ store: ThreadStore; done: () => Promise<void> }>;
  runs: number;
  /** Whether one store serves every case (networked stores). */
  shared?: boolean;
}

export function networked(backend: IsolatedBackend, runs: number): Target {
  return {
    name: backend.name,
    skip: backend.skip,
    runs,
    shared: true,
    open: async () => {
      const store = await backend.create();
      return { store, done: () => backend.destroy(store) };
    },
  };
}

/** Appends one item per id (as thread and as chat id); checks refusals, round trips, no collisions. */
async function roundTrips(store: ThreadStore, raw: string[], prefix: string): Promise<void> {
  const list = raw.map((id) => `${prefix}${id}`);
  const good = list.filter(isStorableId);
  for (const [n, threadId] of list.entries()) {
    const attempt = store.append(
      threadId,
      [{ id: `item-${n}`, item: { role: 'user', content: threadId } }],
      {
        expectedVersion: 0,
        chatId: good[0] ?? null,
      },
    );
    if (isStorableId(threadId)) expect(await attempt).toBe(1);
    else await expect(attempt).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  }
  for (const [n, threadId] of list.entries()) {
    if (!isStorableId(threadId)) continue;
    const record = await store.getThread(threadId);
    expect(record?.threadId).toBe(threadId);
    expect(record?.version).toBe(1);
    const items = await store.readItems(threadId);
    expect(items.map((i) => i.id)).toEqual([`item-${n}`]);
    expect(items[0]!.item).toMatchObject({ content: threadId });
  }
  // By chat: listing every thread would grow with the shared store and make the fuzz quadratic.
  const listed = good[0] === undefined ? [] : await store.listThreads({ chatId: good[0] });
  expect(listed.map((t) => t.threadId).sort()).toEqual([...good].sort());
}

/** Registers the id fuzz property for each of `targets`. */
export function fuzzIds(targets: Target[]): void {
  describe('id fuzzing through every store', () => {
    for (const target of targets) {
      const runs = fuzzRuns(target.runs);
      it.skipIf(Boolean(target.skip))(
        `${target.name}: well-formed ids round-trip and never collide; ill-formed ones get CONFIG_INVALID${target.skip ? ` (skipped: ${target.skip})` : ''}`,
        () =>
          (async () => {
            // Networked stores: one store for the whole property (connections are slow to make),
            // each case under its own id prefix. Local stores: a fresh store per case.
            const shared = target.shared ? await target.open() : undefined;
            let n = 0;
            try {
              await checkProperty(
                `ids-${target.name}`,
                ids,
                async (list) => {
                  const prefix = `case${n++}|`;
                  const { store, done } = shared ?? (await target.open());
                  try {
                    await withinBudget(`${target.name} ids`, () => roundTrips(store, list, prefix));
                  } finally {
                    if (!shared) await done();
                  }
                },
                target.runs,
              );
            } finally {
              await shared?.done();
            }
          })(),
        fuzzTimeout(runs, target.shared ? 150 : target.runs < 100 ? 60 : 20),
      );
    }
  });
}
