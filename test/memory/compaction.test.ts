/**
 * Compaction: a 300-turn chat with a small budget stays under it, its model input holds a summary
 * written by the summariser model, the stored chat keeps every item, and the summaries survive a
 * restart and are inherited by a fork.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { estimateTokens } from '../../src/threads/view.js';

const BUDGET = 400;

const inputOf = (request: ModelRequest) => request.input as AgentInputItem[];
const tokens = (request: ModelRequest) =>
  inputOf(request).reduce((sum, item) => sum + estimateTokens(item), 0);
const summaryIn = (request: ModelRequest) =>
  inputOf(request)
    .map((item) => (item as { content?: unknown }).content)
    .find((c): c is string => typeof c === 'string' && c.includes('<conversation-summary>'));

function open(file: string) {
  const model = new ScriptedModel((request) => `ack ${lastUserText(request).split(' ').at(-1)}`, {
    name: 'chat',
  });
  const summarizer = new ScriptedModel(
    (request) => {
      const text = lastUserText(request);
      const numbers = text.match(/turn \d+/g) ?? [];
      return `SUMMARY by the summariser: the user counted up to ${numbers.at(-1) ?? 'nothing'}.`;
    },
    { name: 'summarizer' },
  );
  const store = new SqliteStore({ path: file });
  const agency = new Agency({
    name: 'long',
    entryPoints: [new Agent({ name: 'A', instructions: 'Count with the user.', model })],
    threads: new ThreadManager({ store }),
    memory: { compaction: { maxTokens: BUDGET, summarizer } },
  });
  return { agency, model, summarizer, store };
}

describe('compaction of a 300-turn chat', () => {
  it('stays under budget with a summary, keeps every item, survives a restart and a fork', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'compaction-')), 'c.db');
    const first = open(file);
    for (let i = 1; i <= 300; i++) {
      await first.agency.getResponse(`this is turn ${i}`, { chatId: 'long' });
    }
    const requests = first.model.calls.map((call) => call.request);
    expect(requests).toHaveLength(300);
    expect(Math.max(...requests.map(tokens))).toBeLessThanOrEqual(BUDGET);
    const last = requests.at(-1)!;
    expect(summaryIn(last)).toMatch(/SUMMARY by the summariser: the user counted up to turn 2\d\d/);
    expect(lastUserText(last)).toBe('this is turn 300');
    // Summaries are cached: far fewer summariser calls than turns, each continuing the last.
    const summaries = first.summarizer.calls.length;
    expect(summaries).toBeGreaterThan(5);
    expect(summaries).toBeLessThan(100);
    expect(lastUserText(first.summarizer.calls.at(-1)!.request)).toMatch(/^The summary so far:/);
    // The stored chat keeps every item: 300 messages and 300 answers.
    const exported = await first.agency.exportChat('long');
    expect(exported.threads.reduce((sum, t) => sum + t.items.length, 0)).toBe(600);
    await first.store.close();

    // A restart: the summary comes from the store.
    const second = open(file);
    await second.agency.getResponse('this is turn 301', { chatId: 'long' });
    const restarted = second.model.calls.at(-1)!.request;
    expect(summaryIn(restarted)).toContain('SUMMARY by the summariser');
    expect(tokens(restarted)).toBeLessThanOrEqual(BUDGET);
    const fromScratch = second.summarizer.calls.filter(
      (call) => !lastUserText(call.request).startsWith('The summary so far:'),
    );
    expect(fromScratch).toEqual([]);

    // A fork inherits the summaries of the chat it was forked from.
    const fork = await second.agency.forkChat('long');
    await second.agency.getResponse('this is turn 302', { chatId: fork });
    const forked = second.model.calls.at(-1)!.request;
    expect(summaryIn(forked)).toContain('SUMMARY by the summariser');
    expect(tokens(forked)).toBeLessThanOrEqual(BUDGET);
    expect(
      second.summarizer.calls.filter(
        (c) => !lastUserText(c.request).startsWith('The summary so far:'),
      ),
    ).toEqual([]);
    await second.store.close();
  }, 120_000);
});
