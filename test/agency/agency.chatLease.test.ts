/**
 * Two processes on one SQLite file send to the same chat at the same moment: the store lease
 * makes the second wait, so it sees the first's turn and nothing interleaves.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { label } from './helpers.js';

const WORKER = fileURLToPath(new URL('./fixtures/chatWorker.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'colloquy-chat-lease-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function worker(path: string, message: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, path, message], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    }),
  );
  const done = new Promise<string>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.split('\n')[1]!) as string)
        : reject(new Error(`worker exited ${code}: ${out}`)),
    ),
  );
  return { child, ready, done };
}

describe('one chat, two processes', () => {
  it('serializes the calls through the store lease', async () => {
    const path = join(dir, 'chat.db');
    // Create the schema once, so both children open a ready database.
    await new SqliteStore({ path }).close();
    const one = worker(path, 'one');
    const two = worker(path, 'two');
    await Promise.all([one.ready, two.ready]);
    one.child.stdin.end('go\n');
    two.child.stdin.end('go\n');
    const answers = (await Promise.all([one.done, two.done])).sort((a, b) =>
      a.slice(-1).localeCompare(b.slice(-1)),
    );
    // One call ran first and saw one user message; the other waited and saw both.
    expect(answers.map((a) => a.slice(-2))).toEqual(['#1', '#2']);
    const store = new SqliteStore({ path });
    const items = await store.readItems('shared__A__USER');
    await store.close();
    const labels = items.map((entry) => label(entry.item));
    const first = answers[0]!.split(' ')[0]!;
    const second = answers[1]!.split(' ')[0]!;
    expect(labels).toEqual([
      `user:${first}`,
      `assistant:${first} #1`,
      `user:${second}`,
      `assistant:${second} #2`,
    ]);
  }, 30_000);
});
