/**
 * idempotencyKey(runContext): the same for a tool call on every retry of its agency call, so a
 * tool can guard its own side effect when its worker dies after the effect and before the tool's
 * output reached the journal (injected here: the journal write of the tool step fails once).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunContext, tool } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { idempotencyKey } from '../../src/agency/journal/journaledTool.js';
import {
  StepJournal,
  journalThreadId,
  withStepJournal,
} from '../../src/agency/journal/stepJournal.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { restoreChat, snapshotChat } from '../../src/queue/chatJournal.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sqlite(): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'colloquy-idem-'));
  dirs.push(dir);
  return new SqliteStore({ path: join(dir, 'threads.db') });
}

/** A payments double that charges once per idempotency key, and the agency that calls it. */
function setup(store: SqliteStore, calls: number) {
  const charged = new Map<string, number>();
  const keys: string[] = [];
  const charge = tool({
    name: 'charge',
    description: 'Charges the card.',
    parameters: {
      type: 'object',
      properties: { cents: { type: 'number' } },
      required: ['cents'],
      additionalProperties: false,
    },
    strict: true,
    execute: (input, runContext) => {
      const key = idempotencyKey(runContext);
      keys.push(key);
      if (!charged.has(key)) charged.set(key, (input as { cents: number }).cents);
      return 'charged';
    },
  });
  const model = new ScriptedModel(
    (request) =>
      toolOutputsSinceUser(request).length === 0
        ? { tools: Array.from({ length: calls }, () => ({ tool: 'charge', args: { cents: 500 } })) }
        : 'Paid.',
    { name: 'pay', repeatLast: true },
  );
  const agent = new Agent({ name: 'Cashier', instructions: 'c', model, tools: [charge] });
  const agency = new Agency({
    entryPoints: [agent],
    threads: new ThreadManager({ store }),
    tracing: false,
  });
  return { agency, charged, keys };
}

describe('idempotencyKey', () => {
  it('is the same on a retry: the tool that ran before its output was journaled charges once', async () => {
    const store = sqlite();
    const { agency, charged, keys } = setup(store, 1);
    const chatId = 'pay-1';
    const snapshot = await snapshotChat(store, chatId);
    // The journal write of the tool step fails once, as if the worker died right after the tool.
    const append = store.append.bind(store);
    let failed = false;
    store.append = async (threadId, items, options) => {
      const kind = (items[0]?.item as unknown as { kind?: string }).kind;
      if (!failed && threadId === journalThreadId('call-pay') && kind === 'tool') {
        failed = true;
        throw new Error('injected: the worker died before the tool step was journaled');
      }
      return append(threadId, items, options);
    };
    const attempt = async () => {
      await restoreChat(store, chatId, snapshot);
      agency.threads.evict(chatId);
      const journal = new StepJournal(store, 'call-pay');
      return withStepJournal(journal, () => agency.getResponse('pay', { chatId }));
    };
    await expect(attempt()).rejects.toThrow(/injected/);
    const result = await attempt();
    expect(result.finalOutput).toBe('Paid.');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toMatch(/^idem_[0-9a-f]{32}$/);
    expect([...charged.values()]).toEqual([500]);
    await store.close();
  });

  it('differs between the tool calls of one answer, and between calls without a journal', async () => {
    const store = sqlite();
    const { agency, keys } = setup(store, 2);
    await withStepJournal(new StepJournal(store, 'call-two'), () =>
      agency.getResponse('pay', { chatId: 'two' }),
    );
    expect(new Set(keys).size).toBe(2);
    keys.length = 0;
    await agency.getResponse('pay', { chatId: 'a' });
    await agency.getResponse('pay', { chatId: 'a' });
    expect(new Set(keys).size).toBe(4);
    await store.close();
  });

  it('throws, naming the fix, outside a tool call of an agency run', () => {
    expect(() => idempotencyKey(new RunContext({}))).toThrow(
      /outside a tool call of an agency run.*execute/,
    );
  });
});
