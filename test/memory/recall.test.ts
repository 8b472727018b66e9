/**
 * Semantic recall: u1's message recalled in a new chat across two processes on the SQLite store
 * (the example run as a child process first), nothing for u2, nothing after forget; rollbacks
 * and forks recall from their own history; an embedder that fails or hangs does not fail a call.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { createLogger, getDefaultLogger, setDefaultLogger } from '../../src/logger.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { memoryAgency, recalledIn } from '../../examples/memory/remember.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const opened: Agency[] = [];

afterEach(async () => {
  for (const agency of opened.splice(0)) await agency.threads.store.close();
});

function lastRecall(model: ScriptedModel): string | undefined {
  return recalledIn(model.calls.at(-1)!.request);
}

describe('recall across two processes on SQLite', () => {
  it('gives u1 the teal message in a new chat, u2 nothing, and nothing after forget', async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), 'memory-')), 'colloquy.db');
    // Process 1: the example, as a user would run it.
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['examples/memory/remember.ts', db, 'u1', 'My favourite colour is teal'],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toMatchObject({ answer: 'Noted.' });
    // Process 2: this one, on the same file.
    const { agency, model } = memoryAgency(db);
    opened.push(agency);
    const asked = await agency.getResponse('Which colour do I like?', {
      userId: 'u1',
      chatId: 'c2',
    });
    expect(lastRecall(model)).toContain('My favourite colour is teal');
    expect(asked.finalOutput).toContain('teal');
    // The recall block is model input only: the thread holds the question and the answer.
    const stored = await agency.threads.store.listThreads({ chatId: 'c2' });
    expect(await agency.threads.store.readItems(stored[0]!.threadId)).toHaveLength(2);

    await agency.getResponse('Which colour do I like?', { userId: 'u2', chatId: 'c3' });
    expect(lastRecall(model)).toBeUndefined();

    const forgotten = await agency.memory!.backend.forget('u1');
    expect(forgotten.vectors).toBe(4); // two chats of u1, a question and an answer each
    await agency.getResponse('Which colour do I like?', { userId: 'u1', chatId: 'c4' });
    expect(lastRecall(model)).toBeUndefined();
  }, 60_000);
});

function offlineAgency(embedder: { dimensions: number; embed(t: string[]): Promise<number[][]> }) {
  const model = new ScriptedModel(() => 'ok', { name: 'm', repeatLast: true });
  const agency = new Agency({
    name: 'mem',
    entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
    memory: { embedder, recall: { topK: 5, timeoutMs: 200 } },
  });
  return { agency, model };
}

describe('recall respects rollbacks and forks', () => {
  it('never recalls what a rollback cut, nor what the forked-from chat said after the fork', async () => {
    const { agency, model } = offlineAgency(new HashedEmbedder());
    const user = { userId: 'u1' };
    await agency.getResponse('I live in Paris', { ...user, chatId: 'a' });
    const checkpoint = await agency.checkpoint('a');
    await agency.getResponse('The secret code word is pineapple', { ...user, chatId: 'a' });
    await agency.getResponse('I moved to Berlin', { ...user, chatId: 'a' });

    const fork = await agency.forkChat('a', checkpoint);
    await agency.getResponse('Where do I live, Berlin?', { ...user, chatId: fork });
    expect(lastRecall(model) ?? '').not.toContain('Berlin last week');

    await agency.getResponse('Where do I live, Berlin?', { ...user, chatId: 'other' });
    expect(lastRecall(model)).toContain('I moved to Berlin');

    await agency.rollback('a', checkpoint);
    await agency.getResponse('What is the secret code word?', { ...user, chatId: 'later' });
    expect(lastRecall(model) ?? '').not.toContain('pineapple');
  });
});

describe('recall without tracing', () => {
  it('recalls in a call that has no trace', async () => {
    const model = new ScriptedModel(() => 'ok', { name: 'm', repeatLast: true });
    const agency = new Agency({
      name: 'untraced',
      entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
      threads: new ThreadManager({ store: new MemoryStore() }),
      tracing: false,
      memory: { embedder: new HashedEmbedder(), recall: {} },
    });
    await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'a' });
    await agency.getResponse('Which colour do I like?', { userId: 'u1', chatId: 'b' });
    expect(lastRecall(model)).toContain('My favourite colour is teal');
  });
});

describe('embedder faults', () => {
  it('a failing or hanging embedder leaves the call running without recall, and logs it', async () => {
    const lines: string[] = [];
    const previous = getDefaultLogger();
    setDefaultLogger(
      createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } }),
    );
    try {
      const healthy = new HashedEmbedder();
      let mode: 'ok' | 'fail' | 'hang' = 'ok';
      const { agency, model } = offlineAgency({
        dimensions: healthy.dimensions,
        model: healthy.model,
        embed: (texts: string[]) =>
          mode === 'ok'
            ? healthy.embed(texts)
            : mode === 'fail'
              ? Promise.reject(new Error('embedding service down'))
              : new Promise<number[][]>(() => {}),
      } as never);
      await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'x' });
      mode = 'fail';
      const failed = await agency.getResponse('Which colour do I like?', {
        userId: 'u1',
        chatId: 'y',
      });
      expect(failed.finalOutput).toBe('ok');
      expect(lastRecall(model)).toBeUndefined();
      mode = 'hang';
      const hung = await agency.getResponse('Which colour do I like?', {
        userId: 'u1',
        chatId: 'z',
      });
      expect(hung.finalOutput).toBe('ok');
      const text = lines.join('');
      expect(text).toContain('embedding service down');
      expect(text).toContain('timed out after 200 ms');
      expect(text).toContain('runs without recall');
    } finally {
      setDefaultLogger(previous);
    }
  });
});
