import type { AgentInputItem, Model, ModelRequest, ModelResponse } from '@openai/agents-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel, type ScriptedResponder } from '../../src/models/scriptedModel.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { parseChatEnvelope } from '../../src/threads/serialization.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { deferred } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDb(name = 'threads.db'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-travel-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, name);
}

function sqliteThreads(file = tempDb()): ThreadManager {
  const store = new SqliteStore({ path: file });
  cleanups.push(() => store.close());
  return new ThreadManager({ store });
}

/** A: answers "A heard: <text>", or asks B first when the message starts with "ask B". */
const alice: ScriptedResponder = (request) => {
  const text = lastUserText(request);
  const outputs = toolOutputsSinceUser(request);
  if (text.startsWith('ask B') && outputs.length === 0) {
    return {
      tool: 'send_message',
      args: { recipient: 'B', message: text, additionalInstructions: null },
    };
  }
  return outputs.length > 0 ? `B said ${outputs[0]}` : `A heard: ${text}`;
};

function build(threads: ThreadManager, options: { autoCheckpoint?: boolean; model?: Model } = {}) {
  const aModel = new ScriptedModel(alice, { name: 'a' });
  const bModel = new ScriptedModel((request) => `B heard: ${lastUserText(request)}`, { name: 'b' });
  const a = new Agent({ name: 'A', instructions: 'You are A.', model: options.model ?? aModel });
  const b = new Agent({ name: 'B', instructions: 'You are B.', model: bModel });
  const agency = new Agency({
    entryPoints: [a],
    communicationFlows: [[a, b]],
    threads,
    ...(options.autoCheckpoint ? { autoCheckpoint: true } : {}),
  });
  return { agency, aModel, bModel };
}

/** The texts of a model request's input items (messages only). */
function inputTexts(request: ModelRequest): string[] {
  return (request.input as AgentInputItem[]).flatMap((item) => {
    if (!('role' in item)) return [];
    const content = item.content as unknown;
    if (typeof content === 'string') return [content];
    return [(content as Array<{ text?: string }>).map((part) => part.text ?? '').join('')];
  });
}

describe('Agency time travel on SQLite', () => {
  it('rollback restores the chat: the next call sees only the history before the checkpoint', async () => {
    const { agency, aModel } = build(sqliteThreads());
    await agency.getResponse('one', { chatId: 'c' });
    const checkpointId = await agency.checkpoint('c', 'after one');
    await agency.getResponse('two', { chatId: 'c' });
    await agency.getResponse('ask B three', { chatId: 'c' });
    const pair = agency.threads.threadId('c', 'A', 'B');
    expect((await agency.threads.store.getThread(pair))?.version).toBe(2);

    const listed = await agency.checkpoints('c');
    expect(listed.map((c) => [c.checkpointId, c.label])).toEqual([[checkpointId, 'after one']]);
    const archives = await agency.rollback('c', checkpointId);
    expect(Object.keys(archives).sort()).toEqual([pair, agency.threads.threadId('c', 'A')].sort());
    expect((await agency.threads.store.getThread(pair))?.version).toBe(0);

    await agency.getResponse('four', { chatId: 'c' });
    expect(inputTexts(aModel.calls.at(-1)!.request)).toEqual(['one', 'A heard: one', 'four']);
    const userThread = await agency.threads.store.readItems(agency.threads.threadId('c', 'A'));
    expect(userThread).toHaveLength(4);
    const archived = await agency.threads.store.readItems(
      archives[agency.threads.threadId('c', 'A')]!,
    );
    expect(archived).toHaveLength(2 + 2 + 4);
  });

  it('forkChat continues from the past in a new chat while the original keeps its later turns', async () => {
    const { agency, aModel } = build(sqliteThreads());
    await agency.getResponse('one', { chatId: 'orig' });
    const checkpointId = await agency.checkpoint('orig');
    await agency.getResponse('two', { chatId: 'orig' });

    const past = await agency.forkChat('orig', checkpointId);
    expect(past).not.toBe('orig');
    await agency.getResponse('other two', { chatId: past });
    expect(inputTexts(aModel.calls.at(-1)!.request)).toEqual(['one', 'A heard: one', 'other two']);

    const now = await agency.forkChat('orig');
    await agency.getResponse('three', { chatId: now });
    expect(inputTexts(aModel.calls.at(-1)!.request)).toEqual([
      'one',
      'A heard: one',
      'two',
      'A heard: two',
      'three',
    ]);

    await agency.getResponse('three', { chatId: 'orig' });
    expect(inputTexts(aModel.calls.at(-1)!.request)).toEqual([
      'one',
      'A heard: one',
      'two',
      'A heard: two',
      'three',
    ]);
    const lengths = await Promise.all(
      ['orig', past, now].map(
        async (chat) =>
          (await agency.threads.store.readItems(agency.threads.threadId(chat, 'A'))).length,
      ),
    );
    expect(lengths).toEqual([6, 4, 6]);
  });

  it('autoCheckpoint records one checkpoint per successful call', async () => {
    const { agency } = build(sqliteThreads(), { autoCheckpoint: true });
    await agency.getResponse('one', { chatId: 'auto' });
    await agency.getResponse('ask B two', { chatId: 'auto' });
    await agency.getResponse('three', { chatId: 'auto' });
    const list = await agency.checkpoints('auto');
    const user = agency.threads.threadId('auto', 'A');
    const pair = agency.threads.threadId('auto', 'A', 'B');
    expect(list.map((c) => c.label)).toEqual(['auto', 'auto', 'auto']);
    expect(list.map((c) => c.threads)).toEqual([
      { [user]: 2 },
      { [user]: 6, [pair]: 2 },
      { [user]: 8, [pair]: 2 },
    ]);
    expect(await agency.checkpoints('other')).toEqual([]);
  });

  it('a checkpoint requested during a call waits for the call and includes its items', async () => {
    const release = deferred();
    const entered = deferred();
    const inner = new ScriptedModel(alice, { name: 'gated' });
    const gated: Model = {
      async getResponse(request: ModelRequest): Promise<ModelResponse> {
        if (lastUserText(request) === 'slow') {
          entered.resolve();
          await release.promise;
        }
        return inner.getResponse(request);
      },
      getStreamedResponse: (request) => inner.getStreamedResponse(request),
    };
    const { agency } = build(sqliteThreads(), { model: gated });
    await agency.getResponse('one', { chatId: 'busy' });
    const call = agency.getResponse('slow', { chatId: 'busy' });
    await entered.promise;
    let settled = false;
    const checkpoint = agency.checkpoint('busy', 'mid-call').then((id) => ((settled = true), id));
    const exported = agency.exportChat('busy');
    // Every step that needs no I/O has run (the SQLite store is synchronous): still waiting.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release.resolve();
    await call;
    const id = await checkpoint;
    const user = agency.threads.threadId('busy', 'A');
    expect((await agency.checkpoints('busy')).find((c) => c.checkpointId === id)?.threads).toEqual({
      [user]: 4,
    });
    expect((await exported).threads.find((t) => t.threadId === user)?.items).toHaveLength(4);
  });

  it('exportChat and importChat round-trip a chat through the agency', async () => {
    const source = build(sqliteThreads());
    await source.agency.getResponse('ask B one', { chatId: 'src' });
    await source.agency.checkpoint('src', 'saved');
    const envelope = parseChatEnvelope(
      JSON.parse(JSON.stringify(await source.agency.exportChat('src'))),
    );
    expect(envelope.threads.map((t) => [t.threadId, t.items.length])).toEqual([
      ['src__A__B', 2],
      ['src__A__USER', 4],
    ]);

    const target = build(sqliteThreads());
    expect(await target.agency.importChat(envelope)).toBe('src');
    expect(await target.agency.importChat(envelope, { as: 'copy' })).toBe('copy');
    await expect(target.agency.importChat(envelope)).rejects.toThrow(/already exists/);
    expect(await target.agency.threads.store.readItems('src__A__USER')).toEqual(
      await source.agency.threads.store.readItems('src__A__USER'),
    );
    await target.agency.getResponse('two', { chatId: 'copy' });
    expect(inputTexts(target.aModel.calls.at(-1)!.request)).toEqual([
      'ask B one',
      'B said B heard: ask B one',
      'two',
    ]);
    const [checkpoint] = await target.agency.checkpoints('copy');
    expect(checkpoint).toMatchObject({
      label: 'saved',
      threads: { copy__A__B: 2, copy__A__USER: 4 },
    });
    await target.agency.rollback('copy', checkpoint!.checkpointId);
    expect(await target.agency.threads.store.readItems('copy__A__USER')).toHaveLength(4);
  });

  it('the default store is SQLite at $COLLOQUY_DB: a new agency continues the chat, close releases it', async () => {
    const file = tempDb('default.db');
    const previous = process.env.COLLOQUY_DB;
    process.env.COLLOQUY_DB = file;
    cleanups.push(() => {
      if (previous === undefined) delete process.env.COLLOQUY_DB;
      else process.env.COLLOQUY_DB = previous;
    });
    const make = () => {
      const model = new ScriptedModel((request) => `heard ${lastUserText(request)}`);
      return {
        model,
        agency: new Agency({ entryPoints: [new Agent({ name: 'A', instructions: 'x', model })] }),
      };
    };
    const first = make();
    expect(first.agency.threads.store.kind).toBe('sqlite');
    await first.agency.getResponse('one', { chatId: 'p' });
    await first.agency.close();
    await expect(first.agency.threads.store.listThreads()).rejects.toThrow();
    const second = make();
    await second.agency.getResponse('two', { chatId: 'p' });
    expect(inputTexts(second.model.calls[0]!.request)).toEqual(['one', 'heard one', 'two']);
    await second.agency.close();
  });
});
