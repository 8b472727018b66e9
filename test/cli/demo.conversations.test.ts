import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEnvelope } from '../../src/threads/serialization.js';
import { ConversationsFake, type FakeRequest } from '../support/conversationsFake.js';
import { spawnColloquy, type CliRun } from './spawnCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-conversations-'));
let fake: ConversationsFake;
let store = '';
beforeAll(async () => {
  fake = await new ConversationsFake().start();
  store = `conversations:${fake.baseURL}`;
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function colloquy(...args: string[]): Promise<CliRun> {
  return spawnColloquy([...args, '--store', store], {
    cwd: dir,
    env: { COLLOQUY_DB: path.join(dir, 'colloquy.db'), AZURE_OPENAI_API_KEY: 'az-fake' },
  });
}

async function ok(...args: string[]): Promise<string> {
  const run = await colloquy(...args);
  expect(run.stderr, `colloquy ${args.join(' ')}`).toBe('');
  expect(run.code, `colloquy ${args.join(' ')}`).toBe(0);
  return run.stdout;
}

/** Requests per route kind, e.g. `{ 'POST items': 4 }`. */
function tally(log: FakeRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of log) {
    const key = `${r.method} ${r.path.includes('/items') ? 'items' : 'conversation'}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

const USER = 'c1__Coordinator__USER';

// The steps build on each other: demo, demo again, checkpoint, export, fork, rollback.
describe('colloquy demo --store conversations:URL', { timeout: 120_000 }, () => {
  let checkpoint = '';

  it('keeps the chat in the service: a second demo run continues it', async () => {
    const first = await ok('demo', '--chat-id', 'c1', '--no-progress');
    expect(first).toContain('Threads (chat c1, store: conversations)');
    const firstLog = fake.take();
    expect(fake.conversations.size).toBe(4);
    const second = await ok('demo', 'And now wave energy?', '--chat-id', 'c1', '--no-progress');
    expect(second).toMatch(new RegExp(`^Earlier in chat c1 \\(6 items in ${USER}\\)`));
    expect(second).toMatch(new RegExp(`${USER} +12$`, 'm'));
    const secondLog = fake.take();
    expect(fake.conversations.size).toBe(4);
    const user = [...fake.conversations.values()].find((c) => c.metadata.colloquy_thread === USER)!;
    expect(user.items).toHaveLength(12);
    expect(user.items[6]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'And now wave energy?' }],
    });
    expect(firstLog.every((r) => r.status === 200 && r.auth === 'api-key az-fake')).toBe(true);
    // The figures docs/stores.md quotes: a demo turn touches 4 threads; on a new chat each costs a
    // create and one add, on a stored chat one load (list) and one add.
    expect(tally(firstLog)).toEqual({ 'POST conversation': 4, 'POST items': 4 });
    expect(tally(secondLog)).toEqual({ 'GET items': 4, 'POST items': 4 });
  });

  it('checkpoints, exports, forks and rolls back the chat', async () => {
    checkpoint = /^(ckpt_\S+)/.exec(await ok('threads', 'checkpoint', 'c1'))![1]!;
    const envelope = JSON.parse(await ok('threads', 'export', 'c1')) as ChatEnvelope;
    expect(envelope.threads.map((t) => [t.threadId, t.items.length])).toContainEqual([USER, 12]);
    const exported = envelope.threads.find((t) => t.threadId === USER)!;
    expect(exported.items[6]).toMatchObject({
      item: { role: 'user', content: 'And now wave energy?' },
    });

    expect(await ok('threads', 'fork', 'c1', '--at', checkpoint, '--as', 'c2')).toBe(
      `Forked c1 at ${checkpoint} into c2.\n`,
    );
    expect(fake.conversations.size).toBe(8);
    await ok('demo', 'Back to tidal.', '--chat-id', 'c2', '--no-progress');
    const c2 = [...fake.conversations.values()].find(
      (c) => c.metadata.colloquy_thread === 'c2__Coordinator__USER',
    )!;
    expect(c2.items).toHaveLength(18);

    await ok('demo', 'One more.', '--chat-id', 'c1', '--no-progress');
    const rolledBack = await ok('threads', 'rollback', 'c1', checkpoint);
    expect(rolledBack).toContain(`Rolled c1 back to ${checkpoint}.`);
    expect(rolledBack).toContain(`${USER}: later items kept in ${USER}~reset~`);
    const listed = await ok('threads', 'list', '--chat', 'c1');
    expect(listed).toMatch(new RegExp(`^${USER} +12 `, 'm'));
    expect(listed).toMatch(new RegExp(`^${USER}~reset~\\S+ +18 `, 'm'));
    const shown = await ok('threads', 'show', USER);
    expect(shown.trimEnd().split('\n')).toHaveLength(14);
  });
});
