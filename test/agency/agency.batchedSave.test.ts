/**
 * An agency call saves every thread it wrote when it ends, in one store transaction where the
 * store offers appendMany (SQLite): user → A → B → A is one commit, not one per run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { AppendBatchEntry } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { label, send } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function delegating(store: SqliteStore, bModel = new ScriptedModel(['B says hi'])) {
  const b = new Agent({ name: 'B', description: 'answers', instructions: 'b', model: bModel });
  const a = new Agent({
    name: 'A',
    instructions: 'a',
    model: new ScriptedModel(
      (request) => {
        const outputs = toolOutputsSinceUser(request);
        return outputs.length === 0 ? send('B', 'hi B') : `A got: ${outputs[0]}`;
      },
      { repeatLast: true },
    ),
  });
  return new Agency({
    entryPoints: [a],
    communicationFlows: [[a, b]],
    threads: new ThreadManager({ store }),
    tracing: false,
  });
}

function spied(store: SqliteStore) {
  const calls = { appendMany: [] as string[][], append: 0 };
  const appendMany = store.appendMany.bind(store);
  store.appendMany = async (batch: readonly AppendBatchEntry[]) => {
    calls.appendMany.push(batch.map((entry) => entry.threadId));
    return appendMany(batch);
  };
  const append = store.append.bind(store);
  store.append = async (...args) => {
    calls.append++;
    return append(...args);
  };
  return calls;
}

function sqlite(): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'colloquy-batched-save-'));
  dirs.push(dir);
  return new SqliteStore({ path: join(dir, 'db.sqlite') });
}

describe('Agency saves a call in one transaction', () => {
  it('writes both threads of user → A → B → A with one appendMany', async () => {
    const store = sqlite();
    const calls = spied(store);
    const agency = delegating(store);
    const result = await agency.getResponse('hello', { chatId: 'c1' });
    expect(result.finalOutput).toBe('A got: B says hi');
    expect(calls).toEqual({ appendMany: [['c1__A__B', 'c1__A__USER']], append: 0 });
    const user = (await store.readItems('c1__A__USER')).map((entry) => label(entry.item));
    expect(user[0]).toBe('user:hello');
    expect(user.at(-1)).toBe('assistant:A got: B says hi');
    expect((await store.readItems('c1__A__B')).length).toBeGreaterThanOrEqual(2);
    await store.close();
  });

  it('still saves what the call wrote when a nested run fails', async () => {
    const store = sqlite();
    const calls = spied(store);
    const failing = new ScriptedModel(() => {
      throw new Error('B is down');
    });
    const agency = delegating(store, failing);
    const result = await agency.getResponse('hello', { chatId: 'c2' });
    expect(result.finalOutput).toMatch(/^A got: Error: B failed to answer: .*B is down/);
    expect(calls.appendMany).toHaveLength(1);
    // B's thread keeps the message it was sent (its failed run generated nothing).
    const b = (await store.readItems('c2__A__B')).map((entry) => label(entry.item));
    expect(b).toEqual(['user:hi B']);
    await store.close();
  });
});
