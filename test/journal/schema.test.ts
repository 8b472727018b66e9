/**
 * The saved format of step journal entries: the frozen v1 journal reads back, what this version
 * writes has exactly the v1 fields, and damaged or newer journals are refused with the thread,
 * the item and the field named.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOURNAL_SCHEMA_VERSION } from '../../src/agency/journal/schema.js';
import { StepJournal, journalThreadId } from '../../src/agency/journal/stepJournal.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';

function fixture(name: string): ThreadItem[] {
  const url = new URL(`../fixtures/step-journal/${name}`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as ThreadItem[];
}

async function journalOf(items: ThreadItem[], callId = 'frozen'): Promise<StepJournal> {
  const store = new MemoryStore();
  await store.append(journalThreadId(callId), items, { expectedVersion: 0, chatId: null });
  return new StepJournal(store, callId);
}

describe('step journal format', () => {
  it('reads the frozen v1 journal', async () => {
    const entries = await (await journalOf(fixture('v1.json'))).entries();
    expect([...entries.keys()]).toEqual([
      'Clerk#model0',
      'Clerk#tool:call_clerk_1#0',
      'Clerk#message:call_clerk_2#0',
    ]);
    const tool = entries.get('Clerk#tool:call_clerk_1#0');
    expect(tool).toMatchObject({ kind: 'tool', output: 'appended', toolCallId: 'call_clerk_1' });
  });

  it('writes entries with exactly the fields of the frozen v1 ones', async () => {
    expect(JOURNAL_SCHEMA_VERSION).toBe(1);
    const store = new MemoryStore();
    const journal = new StepJournal(store, 'now');
    await journal.record({
      kind: 'model',
      key: 'Clerk#model0',
      path: 'Clerk',
      inputHash: 'ab',
      response: {
        output: [],
        usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        responseId: 'r',
      },
    });
    await journal.record({
      kind: 'tool',
      key: 'Clerk#tool:c#0',
      path: 'Clerk',
      tool: 't',
      toolCallId: 'c',
      output: 'o',
    });
    await journal.record({
      kind: 'message',
      key: 'Clerk#message:m#0',
      path: 'Clerk',
      recipient: 'Auditor',
      toolCallId: 'm',
      answer: 'a',
    });
    const written = await store.readItems(journalThreadId('now'));
    const shape = (items: ThreadItem[]) =>
      items.map((entry) => [entry.id, Object.keys(entry.item).sort()]);
    expect(shape(written)).toEqual(shape(fixture('v1.json')));
    expect(await store.getThread(journalThreadId('now'))).toMatchObject({ chatId: null });
  });

  it.each([
    [
      'invalid-newer-version.json',
      /item 0: schemaVersion 2 is newer than this Colloquy reads \(1\)/,
    ],
    ['invalid-model-without-response.json', /item 0: response: .*delete the journal thread/],
    ['invalid-unknown-kind.json', /item 0: kind: .*not written by Colloquy or is damaged/],
  ])('refuses %s, naming the thread, item and field', async (name, message) => {
    const journal = await journalOf(fixture(name));
    await expect(journal.entries()).rejects.toThrow(message);
    await expect(journal.entries()).rejects.toThrow(/Step journal "journal~frozen"/);
  });

  it('discard deletes the journal thread; a discarded journal reads as empty', async () => {
    const journal = await journalOf(fixture('v1.json'));
    expect((await journal.entries()).size).toBe(3);
    await journal.discard();
    expect(await journal.store.getThread(journal.threadId)).toBeNull();
    expect((await journal.entries()).size).toBe(0);
  });
});
