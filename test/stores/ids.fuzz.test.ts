/**
 * Fuzzing ids through the in-process stores (Redis and Postgres: `ids.fuzz.int.test.ts`): random
 * strings, including lone UTF-16 surrogates, near-miss pairs (`\udbff-x` / `\udfff-x` /
 * `\ufffd-x`), separators and escapes, used as thread and chat ids. Well-formed ids round-trip and
 * never collide; ill-formed ones are refused with CONFIG_INVALID; nothing hangs.
 * `threadIdFor`/`parseThreadId` round-trip and never throw.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { parseThreadId, threadIdFor } from '../../src/threads/threadId.js';
import { checkProperty, fuzzRuns, fuzzTimeout } from '../setup/fuzz.js';
import { codeUnits, fuzzIds, type Target } from './idFuzz.js';

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
];

fuzzIds(targets);

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
