/**
 * The step journal in one process, on SQLite: a call fails after its tool step (a fault injected
 * in the model, standing in for a dead worker); the retry (same call id, the chat cut back as the
 * queue worker cuts it) replays the journaled model answers, tool output and nested send_message
 * instead of running them again, and asks the models only for the unfinished step. The threads
 * end as after one uninterrupted run.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { StepJournal, withStepJournal } from '../../src/agency/journal/stepJournal.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { restoreChat, snapshotChat } from '../../src/queue/chatJournal.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { normalise } from '../queue/cluster.js';
import { liveThreads } from '../../src/threads/chatHistory.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'colloquy-journal-'));
  dirs.push(dir);
  return dir;
}

/**
 * A writes a line with its tool, asks B, then answers. `fault.armed` makes A's third model call
 * fail once (after the tool and the nested send_message finished).
 */
function setup(store: SqliteStore, file: string, fault: { armed: boolean }) {
  const counts = { tool: 0, a: 0, b: 0 };
  const appendLine = tool({
    name: 'append_line',
    description: 'Appends a line to the log file.',
    parameters: {
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
      additionalProperties: false,
    },
    strict: true,
    execute: (input) => {
      counts.tool += 1;
      appendFileSync(file, `${(input as { line: string }).line}\n`);
      return 'written';
    },
  });
  const aModel = new ScriptedModel(
    (request) => {
      counts.a += 1;
      const outputs = toolOutputsSinceUser(request);
      if (outputs.length === 0) return { tool: 'append_line', args: { line: 'hello' } };
      if (outputs.length === 1) {
        return {
          tool: 'send_message',
          args: { recipient: 'B', message: 'check the log', additionalInstructions: null },
        };
      }
      if (fault.armed) {
        fault.armed = false;
        return { error: 'injected fault: the worker died here' };
      }
      return `A done (${outputs.join(', ')})`;
    },
    { name: 'a', repeatLast: true },
  );
  const bModel = new ScriptedModel(
    () => {
      counts.b += 1;
      return 'B checked';
    },
    { name: 'b', repeatLast: true },
  );
  const b = new Agent({ name: 'B', description: 'checks', instructions: 'b', model: bModel });
  const a = new Agent({ name: 'A', instructions: 'a', model: aModel, tools: [appendLine] });
  const agency = new Agency({
    entryPoints: [a],
    communicationFlows: [[a, b]],
    threads: new ThreadManager({ store }),
    tracing: false,
  });
  return { agency, counts };
}

async function chatThreads(store: SqliteStore, chatId: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const record of await liveThreads(store, chatId))
    out.push(normalise(await store.readItems(record.threadId)));
  return out;
}

describe('step journal replay (SQLite, in process)', () => {
  for (const mode of ['getResponse', 'getResponseStream'] as const) {
    it(`${mode}: a retry after a fault replays the finished steps and runs only the rest`, async () => {
      const dir = tempDir();
      const file = join(dir, 'log.txt');
      const store = new SqliteStore({ path: join(dir, 'threads.db') });
      const fault = { armed: true };
      const { agency, counts } = setup(store, file, fault);
      const chatId = 'chat-1';
      const snapshot = await snapshotChat(store, chatId);
      const call = async () => {
        // What a queue worker does for a retry: cut the chat back, then run under the journal.
        await restoreChat(store, chatId, snapshot);
        agency.threads.evict(chatId);
        const journal = new StepJournal(store, 'call-1');
        const response = await withStepJournal(journal, async () => {
          if (mode === 'getResponse') return agency.getResponse('go', { chatId });
          let done: unknown;
          for await (const event of agency.getResponseStream('go', { chatId })) {
            if (event.type === 'run_completed') done = event.result;
            if (event.type === 'error') throw new Error(event.error.message);
          }
          return done as Awaited<ReturnType<typeof agency.getResponse>>;
        });
        return { response, journal };
      };

      await expect(call()).rejects.toThrow(/injected fault/);
      expect(counts.tool).toBe(1);
      expect(counts.a).toBe(3);
      expect(counts.b).toBe(1);

      const { response, journal } = await call();
      expect(response.finalOutput).toBe('A done (written, B checked)');
      // The tool and B did not run again; A was asked only for its unfinished third step.
      expect(counts.tool).toBe(1);
      expect(readFileSync(file, 'utf8')).toBe('hello\n');
      expect(counts.a).toBe(4);
      expect(counts.b).toBe(1);
      // A: two model answers; the tool; send_message and B's answer inside it.
      expect(journal.stats).toEqual({ replayed: 5, recorded: 1 });

      // The threads are those of one uninterrupted run.
      const cleanDir = tempDir();
      const clean = new SqliteStore({ path: join(cleanDir, 'threads.db') });
      const once = setup(clean, join(cleanDir, 'log.txt'), { armed: false });
      await once.agency.getResponse('go', { chatId });
      expect(await chatThreads(store, chatId)).toEqual(await chatThreads(clean, chatId));
      await journal.discard();
      expect(await store.getThread(journal.threadId)).toBeNull();
      await clean.close();
      await store.close();
    });
  }

  it('a call without a journal records nothing and runs every step', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ path: join(dir, 'threads.db') });
    const { agency, counts } = setup(store, join(dir, 'log.txt'), { armed: false });
    await agency.getResponse('go', { chatId: 'c' });
    await agency.getResponse('go', { chatId: 'c' });
    expect(counts.tool).toBe(2);
    const journals = (await store.listThreads()).filter((r) => r.threadId.startsWith('journal~'));
    expect(journals).toEqual([]);
    await store.close();
  });

  it('a journaled model answer to another input is not replayed: the step runs live', async () => {
    const dir = tempDir();
    const store = new SqliteStore({ path: join(dir, 'threads.db') });
    const model = new ScriptedModel(['live answer']);
    const solo = new Agent({ name: 'Solo', instructions: 's', model });
    const agency = new Agency({
      entryPoints: [solo],
      threads: new ThreadManager({ store }),
      tracing: false,
    });
    const stale = new StepJournal(store, 'call-stale');
    await stale.record({
      kind: 'model',
      key: 'Solo#model0',
      path: 'Solo',
      inputHash: 'an-input-this-call-never-sends',
      response: {
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'stale answer' }],
          },
        ],
        usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      },
    });
    const journal = new StepJournal(store, 'call-stale');
    const response = await withStepJournal(journal, () =>
      agency.getResponse('hi', { chatId: 's' }),
    );
    expect(response.finalOutput).toBe('live answer');
    expect(journal.stats).toEqual({ replayed: 0, recorded: 1 });
    await store.close();
  });
});
