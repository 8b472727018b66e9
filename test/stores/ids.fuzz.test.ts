/**
 * Fuzzing ids through every store: random strings, including lone UTF-16 surrogates, near-miss
 * pairs (`\udbff-x` / `\udfff-x` / `\ufffd-x`), separators and escapes, used as thread and chat
 * ids. Well-formed ids round-trip and never collide; ill-formed ones are refused with
 * CONFIG_INVALID; nothing hangs. `threadIdFor`/`parseThreadId` round-trip and never throw.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStorableId } from '../../src/stores/ids.js';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { parseThreadId, threadIdFor } from '../../src/threads/threadId.js';
import { checkProperty, fuzzRuns, fuzzTimeout, withinBudget } from '../setup/fuzz.js';
import { postgresBackend, redisBackend, type IsolatedBackend } from './isolatedStores.js';

/** Strings of any UTF-16 code units (lone surrogates included), and tricky hand-picked ones. */
const codeUnits = fc
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

interface Target {
  name: string;
  skip?: string;
  open: () => Promise<{ store: ThreadStore; done: () => Promise<void> }>;
  runs: number;
  /** Whether one store serves every case (networked stores). */
  shared?: boolean;
}

function networked(backend: IsolatedBackend, runs: number): Target {
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

const targets: Target[] = [
  {
    name: 'MemoryStore',
    runs: 200,
    open: async () => ({ store: new MemoryStore(), done: async () => undefined }),
  },
  {
    name: 'SqliteStore',
    runs: 200,
    open: async () => {
      const store = new SqliteStore({ path: ':memory:' });
      return { store, done: () => store.close() };
    },
  },
  {
    name: 'JsonFileStore',
    runs: 60,
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-fuzz-'));
      const store = new JsonFileStore({ dir, fsync: false });
      return { store, done: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  networked(redisBackend(), 100),
  networked(postgresBackend(), 100),
];

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

describe('threadIdFor / parseThreadId fuzzing', () => {
  const part = fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.constantFrom('USER', '__', '_', '%', '~', 'a__b', '%25'),
  );
  it(
    'round-trips every (chat, agent, other) and never maps two to one id',
    () =>
      checkProperty(
        'thread-id-roundtrip',
        fc.tuple(
          part,
          part,
          fc.option(part, { nil: null }),
          part,
          part,
          fc.option(part, { nil: null }),
        ),
        async ([chat, a, b, chat2, a2, b2]) => {
          const first = threadIdFor(chat, a, b);
          const parsed = parseThreadId(first);
          expect(parsed?.chatId).toBe(chat);
          const expected = b === null ? [a, null] : [a, b].sort();
          expect(parsed?.participants).toEqual(expected);
          const same =
            chat === chat2 &&
            (b === null
              ? b2 === null && a === a2
              : b2 !== null && [a, b].sort().join('\0') === [a2, b2].sort().join('\0'));
          expect(first === threadIdFor(chat2, a2, b2)).toBe(same);
        },
        1000,
      ),
    fuzzTimeout(fuzzRuns(1000), 2),
  );

  it(
    'parseThreadId never throws on any string',
    () =>
      checkProperty(
        'parse-thread-id',
        fc.oneof(codeUnits, fc.string({ maxLength: 30 })),
        async (text) => {
          const parsed = parseThreadId(text);
          if (parsed) expect(typeof parsed.chatId).toBe('string');
        },
        1000,
      ),
    fuzzTimeout(fuzzRuns(1000), 2),
  );
});
